/** Types of travel-desk.mjs. */
import type { DeskAction, DeskEvent, DeskOptions } from './desk.mjs';
export declare function decideTravel(history: readonly DeskEvent[], options?: DeskOptions): DeskAction;
