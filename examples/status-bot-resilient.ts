import { statusBot } from './status-bot.js';

/** The status bot with exponential backoff (honouring Retry-After) around its tool calls: swept beside the plain one, the difference is the strategy's. */
export default statusBot('backoff');
