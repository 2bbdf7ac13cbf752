import { callTool, defineAgent, withStrategies, type AgentFactory } from 'shakedown';

/**
 * A minimal agent on the Shakedown contract: it answers order-status questions and nothing else. It
 * follows the retail policy's conduct rules for a read: it verifies the customer by e-mail before it
 * reads an order, and tells the status only of the customer's own orders.
 *
 *   npx shakedown sweep --agent ./examples/status-bot.ts --agent ./examples/status-bot-resilient.ts \
 *     --scenario read-order-status --eps 0 --lambda 0,0.3 --profile rate-limit
 */
/**
 * The status bot, its tool calls behind fallback strategies (`none`: as it is). `withStrategies` wraps
 * its fetch; everything else stays the same, so a sweep of two of them compares the strategies alone.
 */
export function statusBot(strategies = 'none'): AgentFactory {
  return defineAgent({
    id: strategies === 'none' ? 'status-bot' : `status-bot+${strategies}`,
    description: `answers order status questions${strategies === 'none' ? '' : `, its tool calls behind ${strategies}`}`,
    worlds: ['retail'],
    create: (ctx) => {
      const fetch = strategies === 'none' ? ctx.fetch : withStrategies(ctx, strategies);
      let email: string | undefined;
      let orderId: string | undefined;
      let userId: string | undefined;
      const call = (name: string, args: Record<string, unknown>) => {
        const spec = ctx.toolSpecs.find((t) => t.name === name);
        if (!spec) throw new Error(`this agent needs the ${name} tool`);
        return callTool(fetch, ctx.baseUrl, spec, args, { signal: ctx.signal });
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
}

export default statusBot();
