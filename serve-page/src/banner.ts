import type { ErrorFix } from '../../core/errors/error-fix.ts';
import { ApiError } from './api.ts';
import { byId, button, create } from './elements.ts';
import { fixChoices } from './fix-choices.ts';

/** What clicking one of a fix's choices does, in the place the error came from (ask again, explain again). */
export type FixHandler = (fix: ErrorFix, value: string) => void;

let started = 0;
/** The action whose error the banner shows; 0 when it shows none. */
let shownFor = 0;

/**
 * Runs one action of the page (ask, browse, open evidence, …) and keeps the banner true: the
 * action's error is shown there, with its fix as buttons when it has one, and the banner is cleared
 * when an action started after that error succeeds. An action started before it, and finishing
 * after, leaves it: it says nothing about what failed since.
 */
export async function run<T>(action: () => Promise<T>, onFix?: FixHandler): Promise<T | undefined> {
  const mine = ++started;
  try {
    const result = await action();
    if (shownFor !== 0 && shownFor < mine) clearBanner();
    return result;
  } catch (error) {
    showError(error, mine, onFix);
    return undefined;
  }
}

function clearBanner(): void {
  shownFor = 0;
  const banner = byId('banner');
  banner.replaceChildren();
  banner.hidden = true;
}

function showError(error: unknown, action: number, onFix: FixHandler | undefined): void {
  shownFor = action;
  const banner = byId('banner');
  const message = error instanceof Error ? error.message : String(error);
  banner.replaceChildren(create('p', message, 'error'));
  const fix = error instanceof ApiError ? error.fix : undefined;
  if (fix && onFix) {
    const { lead, choices } = fixChoices(fix);
    const line = create('p', undefined, 'fix');
    if (lead) line.append(create('span', `${lead} `));
    for (const choice of choices) line.append(button(choice.label, () => onFix(fix, choice.value), 'choice'));
    banner.append(line);
  } else if (error instanceof ApiError && error.hint) {
    banner.append(create('p', error.hint, 'muted'));
  }
  banner.append(button('Dismiss', clearBanner, 'secondary'));
  banner.hidden = false;
}
