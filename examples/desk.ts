import { defineAgent } from 'shakedown';
import { deskReply, httpCall, type DeskEvent } from './http-agent/desk.mjs';

/**
 * The order desk of examples/http-agent/desk.mjs as a module agent: the same logic the Node service
 * (examples/http-agent/agent.mjs) runs, its tool calls through the episode's fetch and its waits on the
 * episode's clock. Swept beside the service, the two score the same (docs/faults.md, "Time"):
 *
 *   node examples/http-agent/agent.mjs --port 8766 &
 *   npx shakedown sweep --agent ./examples/desk.ts --agent http://127.0.0.1:8766 \
 *     --scenario read-order-status --scenario cancel-pending --eps 0 --lambda 0,0.3 --profile rate-limit
 */
export default defineAgent({
  id: 'desk',
  description: 'order desk (status, cancellation) with retries honouring Retry-After and idempotency keys',
  worlds: ['retail'],
  create: (ctx) => {
    const history: DeskEvent[] = [];
    return {
      reply: (text) =>
        deskReply(history, text, {
          call: (action) => httpCall(ctx.fetch, ctx.baseUrl, ctx.tools, action, ctx.signal),
          wait: (ms) => ctx.clock.sleep(ms, ctx.signal),
        }),
    };
  },
});
