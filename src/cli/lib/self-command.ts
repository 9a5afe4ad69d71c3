/**
 * How a command starts another ardsite command in a child process (`ardsite serve` builds in registry
 * mode first): the same entry as the running one, the compiled `lib/cli/main.js` of the package, or
 * `src/cli/main.ts` through tsx in a checkout of ardsite.
 */
import { fileURLToPath } from 'node:url';

/**
 * Node's arguments that run `ardsite <command>` (then the caller's arguments), e.g.
 * `['--import', 'tsx', '/…/src/cli/main.ts', 'build']`. Never throws.
 */
export function selfCommand(command: string): string[] {
  const typescript = import.meta.url.endsWith('.ts');
  const main = fileURLToPath(new URL(typescript ? '../main.ts' : '../main.js', import.meta.url));
  return [...(typescript ? ['--import', 'tsx'] : []), main, command];
}
