// The bench's per-episode task, the one measured beside other harnesses (docs/performance.md): a scripted
// retail agent that identifies the user by e-mail, reads the order, proposes the cancellation and, on a
// yes, cancels it. Three tool calls over two turns, no model. Plain JavaScript with no imports, so that
// the same file runs in the sweep's process and in an agent host unchanged.
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const ORDER = /#?W\d{7}/i;

export default {
  id: 'cancel-bot',
  description: 'identifies the user, reads the order and cancels it on a yes (3 tool calls, 2 turns)',
  worlds: ['retail'],
  create: (ctx) => {
    const get = async (path) => {
      const r = await ctx.fetch(`${ctx.baseUrl}${path}`, { headers: { accept: 'application/json' } });
      return { ok: r.ok, body: r.ok ? await r.json() : await r.text() };
    };
    let orderId;
    let reason = 'no longer needed';
    return {
      async reply(message) {
        if (!orderId) {
          const email = EMAIL.exec(message)?.[0];
          orderId = ORDER.exec(message)?.[0];
          if (/mistake/i.test(message)) reason = 'ordered by mistake';
          if (!email || !orderId) return 'Could you give me your e-mail address and the order number?';
          const user = await get(`/users/by-email?email=${encodeURIComponent(email.toLowerCase())}`);
          if (!user.ok) return "I couldn't find an account with that e-mail.";
          const order = await get(`/orders/${encodeURIComponent(orderId)}`);
          if (!order.ok || order.body.userId !== user.body.userId) return `I can't find order ${orderId} on your account.`;
          if (order.body.status !== 'pending') return `Order ${orderId} is ${order.body.status} and cannot be cancelled.`;
          return `To confirm: I'll cancel order ${orderId} (reason: ${reason}). Shall I proceed? (yes/no)`;
        }
        if (!/\byes\b/i.test(message)) return 'All right, I will leave the order as it is.';
        const r = await ctx.fetch(`${ctx.baseUrl}/orders/${encodeURIComponent(orderId)}/cancel`, {
          method: 'POST',
          headers: { accept: 'application/json', 'content-type': 'application/json' },
          body: JSON.stringify({ reason }),
        });
        await r.text();
        return r.ok ? `Order ${orderId} is now cancelled.` : `Sorry, I could not cancel order ${orderId}.`;
      },
    };
  },
};
