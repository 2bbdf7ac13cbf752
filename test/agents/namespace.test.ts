/**
 * Namespaces of its own for an agent's process (src/agents/host/namespace.ts): what is covered is gone,
 * what is written for it is there, no other process is in sight, the cover cannot be lifted, and the
 * same command outside sees everything (the control).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { enclose, namespacesAvailable, useNamespaces } from '../../src/agents/host/namespace.js';
import { treeResidentMb } from '../../src/agents/host/process.js';

const dir = mkdtempSync(join(tmpdir(), 'shakedown-ns-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LOOK = (secret: string, own: string) =>
  [
    `echo "$(cat '${secret}/key' 2>/dev/null || echo no-key)"`,
    `echo "$(cat '${own}' 2>/dev/null || echo no-own)"`,
    `echo "procs $(ls /proc | grep -c '^[0-9]')"`,
    `umount '${join(secret)}' 2>/dev/null && echo lifted || echo kept`,
    `env | grep -c SHAKEDOWN_NS_FILE || true`,
  ].join('; ');

describe.runIf(namespacesAvailable())('an agent process in namespaces of its own', () => {
  it('finds covered folders empty, its own files written, no other process, and cannot lift the cover', () => {
    const secret = join(dir, 'run');
    mkdirSync(secret);
    writeFileSync(join(secret, 'key'), 'the-run-key');
    const own = join(secret, 'episode.context.json');
    const e = enclose('/bin/sh', ['-c', LOOK(secret, own)], { hidden: [secret, join(dir, 'not-there')], files: { [own]: `{"quote": "it's \`$HOME\`"}` } });
    const r = spawnSync(e.file, e.args, { env: { PATH: process.env.PATH ?? '', ...e.env }, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('no-key');
    expect(lines[1]).toBe(`{"quote": "it's \`$HOME\`"}`);
    expect(Number(lines[2]?.split(' ')[1])).toBeLessThan(6);
    expect(lines[3]).toBe('kept');
    expect(lines[4]).toBe('0');
  });

  it('is the control: the same command outside reads the key and sees every process', () => {
    const secret = join(dir, 'run2');
    mkdirSync(secret);
    writeFileSync(join(secret, 'key'), 'the-run-key');
    const r = spawnSync('/bin/sh', ['-c', LOOK(secret, join(secret, 'none'))], { encoding: 'utf8' });
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('the-run-key');
    expect(Number(lines[2]?.split(' ')[1])).toBeGreaterThan(5);
  });

  it('covers a folder inside another covered one with it, and one the agent works in', () => {
    const run = join(dir, 'run3');
    mkdirSync(join(run, 'llm-cache'), { recursive: true });
    writeFileSync(join(run, 'llm-cache', 'entry'), 'cached');
    const e = enclose('/bin/sh', ['-c', `ls -A "${run}" | wc -l; ls -A . | wc -l`], { hidden: [run, join(run, 'llm-cache')] });
    const r = spawnSync(e.file, e.args, { cwd: run, env: { PATH: process.env.PATH ?? '', ...e.env }, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').map((x) => x.trim())).toEqual(['0', '0']);
  });

  it('says it is on unless set off', () => {
    expect(useNamespaces('auto')).toBe(true);
    expect(useNamespaces('on')).toBe(true);
    expect(useNamespaces('off')).toBe(false);
  });
});

describe('the memory of a process tree', () => {
  it('adds up a process and its children', () => {
    const own = treeResidentMb(process.pid);
    expect(own).toBeGreaterThan(10);
    expect(treeResidentMb(2 ** 22 + 7)).toBeUndefined();
  });
});
