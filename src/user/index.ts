// The simulated user: what the rest of Shakedown may use of it. See docs/user.md.
export { ScriptedUser } from './scripted.js';
export { renderTemplate } from '../ground/simulator.js';
export { readAgentMessage } from './reading.js';
export type { Ask, Reading } from './reading.js';
export type { Confusion, UserMessage, UserSimulator, UserSimulatorFactory, UserStep } from '../ground/simulator.js';
export { llmUserSimulator, userInstructions } from './llm.js';
