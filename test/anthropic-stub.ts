/** The stub model of `shakedown stub-llm` (src/run/stub-model.ts) as the Anthropic tests start it: the desk, on the Messages API. */
import { startStubModel, type StubModel } from '../src/run/stub-model.js';

export type AnthropicStub = StubModel;

export const startAnthropicStub = (): Promise<AnthropicStub> => startStubModel();
