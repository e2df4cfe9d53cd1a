import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { quoteShellArgument } from '../../node/runtime/quote-shell-argument.ts';

/**
 * Writes `npx` and `npm` into `directory` for a shell whose PATH starts there: in `checkout` (a copy
 * of the repository) they run what npm would run, without npm's own start-up, which costs about a
 * second of CPU per command and is most of what the documented commands cost here. What they
 * stand for, read from the checkout's package.json as npm reads it:
 *   npx NAME ARGS…           a bin of the package itself (`npx srag`), or one in node_modules/.bin (`npx tsx`)
 *   npm run NAME [--] ARGS…  the script NAME in sh, node_modules/.bin first on PATH, ARGS appended
 * Anything else — another directory, another npm command, a script with a pre- or post-script —
 * goes to npm itself, found on PATH after `directory`. The commands test checks once that the real
 * npx runs the same srag.
 */
export function writePackageRunnerShims(directory: string, checkout: string): void {
  const manifest = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as { bin?: Record<string, string>; scripts?: Record<string, string> };
  const root = quoteShellArgument(checkout);
  const bins = Object.entries(manifest.bin ?? {}).map(([name, path]) => `    ${quoteShellArgument(name)}) shift; exec ${quoteShellArgument(process.execPath)} ${root}/${quoteShellArgument(path)} "$@" ;;`);
  const scripts = manifest.scripts ?? {};
  const runnable = Object.entries(scripts).filter(([name]) => !(`pre${name}` in scripts) && !(`post${name}` in scripts));
  const cases = runnable.map(([name, script]) => `    ${quoteShellArgument(name)}) script=${quoteShellArgument(script)} ;;`);
  // The real npx and npm: the first on PATH after the shims' directory.
  const passOn = (tool: string) => `PATH=\${PATH#${quoteShellArgument(directory)}:} exec ${tool} "$@"`;
  mkdirSync(directory, { recursive: true });
  writeScript(join(directory, 'npx'), [
    `if [ "$PWD" = ${root} ]; then`,
    '  case "$1" in',
    ...bins,
    '  esac',
    '  if [ -n "$1" ] && [ -x "node_modules/.bin/$1" ]; then tool="node_modules/.bin/$1"; shift; exec "$tool" "$@"; fi',
    'fi',
    passOn('npx'),
  ]);
  writeScript(join(directory, 'npm'), [
    `if [ "$PWD" = ${root} ] && [ "$1" = run ] && [ -n "$2" ]; then`,
    '  name=$2',
    '  script=',
    '  case "$name" in',
    ...cases,
    '  esac',
    '  if [ -n "$script" ]; then',
    '    shift 2',
    '    [ "$1" = -- ] && shift',
    `    PATH=${root}/node_modules/.bin:$PATH exec sh -c "$script \\"\\$@\\"" "npm run $name" "$@"`,
    '  fi',
    'fi',
    passOn('npm'),
  ]);
}

function writeScript(path: string, lines: string[]): void {
  writeFileSync(path, `#!/usr/bin/env bash\n${lines.join('\n')}\n`);
  chmodSync(path, 0o755);
}
