// Removes the folder a run of the tests wrote in (vitest.config.ts) when the run ends.
import { rmSync } from 'node:fs';

export default function setup(): () => void {
  return () => {
    const root = process.env.SHAKEDOWN_TEST_ROOT;
    if (root) rmSync(root, { recursive: true, force: true });
  };
}
