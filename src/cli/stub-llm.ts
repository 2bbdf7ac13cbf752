/**
 * `shakedown stub-llm`: a local model on the OpenAI and Anthropic wire formats that plays the built-in
 * worlds' desk (src/run/stub-model.ts), for trying every LLM path (the LLM agent, the Anthropic agent,
 * the LLM user simulator, the LLM judge, the cache, pacing) without a key or a network.
 */
import { ShakedownError } from '../ground/errors.js';
import { startStubModel } from '../run/stub-model.js';
import { untilSignal } from './stop-signals.js';
import { parseInteger, type Flags, type Io } from './options.js';

export async function stubLlmCommand(flags: Flags, io: Io, stopped: Promise<void> = untilSignal()): Promise<number> {
  const port = flags.port === undefined ? 8787 : parseInteger('port', flags.port);
  const delayMs = flags['delay-ms'] === undefined ? 0 : parseInteger('delay-ms', flags['delay-ms']);
  if (port < 0 || port > 65535) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--port ${port}\`: give a port from 1 to 65535, or 0 for any free one.`);
  let stub;
  try {
    stub = await startStubModel({ port, delayMs });
  } catch (error) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to serve the stub model on port ${port}: ${(error as Error).message}. Pick another \`--port\`, or 0 for any free one.`, { cause: error });
  }
  const base = stub.baseUrl;
  io.out(`stub model on ${base} (no key needed; any key is accepted)\n`);
  io.out(`  OpenAI Chat Completions: POST ${base}/chat/completions\n`);
  io.out(`  Anthropic Messages:      POST ${base}/messages\n`);
  io.out(`It plays the retail order desk and the travel reservation desk (status, cancellation), the LLM user and the LLM judge.\n`);
  io.out(`Try, in another terminal:\n`);
  io.out(`  OPENAI_API_KEY=stub npx shakedown sweep --agent llm:stub --llm-base-url ${base} --scenario category:cancel --eps 0 --lambda 0,0.3 --trials 2\n`);
  io.out(`  ANTHROPIC_API_KEY=stub npx shakedown sweep --agent anthropic:stub --anthropic-base-url ${base} --world travel --scenario category:cancel --eps 0 --lambda 0 --trials 2\n`);
  io.out(`  OPENAI_API_KEY=stub npx shakedown sweep --agent reference:robust --simulator llm --judge llm:stub --llm-base-url ${base} --scenario read-order-status --eps 0 --lambda 0 --trials 2\n`);
  io.out('Stop with Ctrl-C.\n');
  await stopped;
  await stub.close();
  io.out(`\n${stub.requests.length} request(s) answered.\n`);
  return 0;
}
