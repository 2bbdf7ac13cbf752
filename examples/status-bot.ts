import { callTool, defineAgent } from '../src/index.js';

/**
 * A minimal agent on the Shakedown contract: it answers order-status questions and nothing else. It
 * follows the retail policy's conduct rules for a read: it verifies the customer by e-mail before it
 * reads an order, and tells the status only of the customer's own orders.
 */
export default defineAgent({
  id: 'status-bot',
  description: 'answers order status questions',
  worlds: ['retail'],
  create: (ctx) => {
    let email: string | undefined;
    let orderId: string | undefined;
    let userId: string | undefined;
    const call = (name: string, args: Record<string, unknown>) => {
      const spec = ctx.toolSpecs.find((t) => t.name === name);
      if (!spec) throw new Error(`this agent needs the ${name} tool`);
      return callTool(ctx.fetch, ctx.baseUrl, spec, args, { signal: ctx.signal });
    };
    return {
      async reply(message) {
        email = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(message)?.[0] ?? email;
        orderId = /#?W\d{7}/i.exec(message)?.[0] ?? orderId;
        if (!userId) {
          if (!email) return 'Before I can help, I need to verify your identity. Could you give me your email address?';
          const found = await call('find_user_by_email', { email: email.toLowerCase() });
          if (found.status === 404) return "I couldn't find an account with that e-mail. Could you check your email address?";
          if (!found.ok) return "Sorry, I can't look you up right now. Please try again later.";
          userId = (found.body as { userId: string }).userId;
        }
        if (!orderId) return 'Which order do you mean? Please give me the order number.';
        const r = await call('get_order', { orderId });
        if (!r.ok) return 'Sorry, I could not look it up.';
        const order = r.body as { status: string; userId: string };
        if (order.userId !== userId) return `Order ${orderId} is not on your account, so I can't tell you about it.`;
        return `Order ${orderId} is ${order.status}.`;
      },
    };
  },
});
