// A hidden command (the debug pod's `kubelet-journal`) runs and has its own --help, but `pleg-doctor --help`
// and the unknown-command message do not offer it to people.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/dispatch';
import { COMMANDS } from '../../../src/cli/registry';
import { memoryIo } from '../../support/memoryIo';

describe('hidden commands', () => {
  it('kubelet-journal is left out of the main help and the command list, and still runs', async () => {
    expect(COMMANDS['kubelet-journal']?.hidden).toBe(true);
    const main = memoryIo();
    expect(await runCli(['--help'], main, COMMANDS, '1')).toBe(0);
    expect(main.out()).toContain('  logs ');
    expect(main.out()).not.toContain('kubelet-journal');
    const unknown = memoryIo();
    expect(await runCli(['nope'], unknown, COMMANDS, '1')).toBe(2);
    expect(unknown.err()).toContain('logs');
    expect(unknown.err()).not.toContain('kubelet-journal');
    const own = memoryIo();
    expect(await runCli(['kubelet-journal', '--help'], own, COMMANDS, '1')).toBe(0);
    expect(own.out()).toContain('Usage: pleg-doctor kubelet-journal --since TIME --until TIME');
  });
});
