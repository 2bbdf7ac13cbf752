/**
 * The stub model of `shakedown stub-llm` (src/run/stub-model.ts) as the tests start it: on Chat Completions
 * its "model" answers order-status questions unless `script: 'desk'` asks for the world's desk.
 */
import { startStubModel, type StubModel, type StubOptions } from '../src/run/stub-model.js';

export type LlmStub = StubModel;
export type { StubOptions };

export const startLlmStub = (options: StubOptions = {}): Promise<LlmStub> => startStubModel({ script: 'status', ...options });
