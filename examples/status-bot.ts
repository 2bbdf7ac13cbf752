import { callTool, defineAgent } from '../src/index.js';

/**
 * A minimal agent on the Shakedown contract: it answers order-status questions and nothing else. It
 * skips identity verification, so it passes only scenarios that do not check for it.
 */
export default defineAgent({
  id: 'status-bot',
  description: 'answers order status questions',
  create: (ctx) => ({
    async reply(message) {
      const id = /#?W\d{7}/.exec(message)?.[0];
      if (!id) return 'Which order do you mean? Please give me the order number.';
      const spec = ctx.toolSpecs.find((t) => t.name === 'get_order');
      if (!spec) throw new Error('this agent needs the get_order tool');
      const r = await callTool(ctx.fetch, ctx.baseUrl, spec, { orderId: id });
      return r.ok ? `Order ${id} is ${(r.body as { status: string }).status}.` : 'Sorry, I could not look it up.';
    },
  }),
});
