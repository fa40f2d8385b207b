// argv → one POSIX shell command line. sshd hands the command string to the login user's shell, so
// every argument is single-quoted: inside single quotes a POSIX shell expands nothing, and the only
// character needing care is the quote itself, written as '\'' (close, escaped quote, reopen).
// This assumes a POSIX login shell on the node (sh, bash, dash, zsh, ksh); csh/tcsh and fish treat some
// quoted characters differently and are not supported as login shells for node access.

export class UnsafeArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeArgumentError';
  }
}

/** Quotes one argument. NUL cannot be passed through a C argv at all, so it is rejected, not dropped. */
export function quoteShellArg(arg: string): string {
  if (arg.includes('\0')) {
    throw new UnsafeArgumentError(`argument contains a NUL byte and cannot be passed to a remote command: ${JSON.stringify(arg)}`);
  }
  return `'${arg.replaceAll("'", "'\\''")}'`;
}

export interface ShellCommandOptions {
  /** Prefix `sudo -n --`: never prompts, fails fast when no non-interactive sudo rule exists. */
  sudo?: boolean;
}

/** Builds the command string for an exec channel; the first argument is the program. */
export function buildShellCommand(argv: readonly string[], options: ShellCommandOptions = {}): string {
  if (argv.length === 0) {
    throw new UnsafeArgumentError('empty command: argv must name a program');
  }
  const full = options.sudo === true ? ['sudo', '-n', '--', ...argv] : [...argv];
  return full.map(quoteShellArg).join(' ');
}
