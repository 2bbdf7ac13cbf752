// A module agent that thinks as one behind a model API does, for the bench's I/O section: each turn waits
// 20 ms of real time, one turn in eight 400 ms (a long completion), then it says it cannot help. Which
// turns are long follows from the episode's seed and the turn, so two runs wait alike.
export default {
  id: 'thinking',
  description: 'waits 20 ms, or 400 ms one turn in eight, then declines',
  create: (ctx) => {
    let h = 0;
    for (const c of String(ctx.seed)) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    let turn = 0;
    return {
      reply: async () => {
        const ms = (h + turn++) % 8 === 0 ? 400 : 20;
        // clock: real thinking time, as a model's; the episode's outcome does not depend on it.
        await new Promise((resolve) => setTimeout(resolve, ms));
        return 'I cannot help with that.';
      },
    };
  },
};
