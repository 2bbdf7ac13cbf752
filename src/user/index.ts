// The simulated user: what the rest of Shakedown may use of it. See docs/user.md.
export { ScriptedUser, renderTemplate } from './scripted.js';
export { readAgentMessage } from './reading.js';
export type { Ask, Reading } from './reading.js';
export type { Confusion, UserMessage, UserSimulator, UserSimulatorFactory, UserStep } from './scripted.js';
export { llmUserSimulator, userInstructions } from './llm.js';
