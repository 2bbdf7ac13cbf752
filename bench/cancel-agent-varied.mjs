// The bench's per-episode agent (cancel-agent.mjs) with replies that never repeat: each carries the
// episode's id. The user's reading of a message and the judge's label of a claim are remembered by their
// text, so an agent that says the same words every episode pays for reading them once; this one pays
// every episode, as an agent backed by a model does.
import base from './cancel-agent.mjs';

export default {
  ...base,
  id: 'cancel-bot-varied',
  description: 'cancel-bot, each reply marked with its episode (nothing read is read again)',
  create: (ctx) => {
    const agent = base.create(ctx);
    let n = 0;
    return {
      async reply(message) {
        return `[${ctx.episodeId} ${++n}] ${await agent.reply(message)}`;
      },
    };
  },
};
