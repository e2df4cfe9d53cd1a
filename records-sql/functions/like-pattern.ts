/** The regular expression a LIKE pattern stands for (`%` any run, `_` one character). */
export function likePatternToRegularExpression(pattern: string, escape: string | undefined, caseInsensitive: boolean): RegExp {
  let source = '';
  const characters = [...pattern];
  for (let index = 0; index < characters.length; index += 1) {
    const character = characters[index]!;
    if (escape !== undefined && character === escape) {
      index += 1;
      source += escapeRegularExpression(characters[index] ?? '');
    } else if (character === '%') source += '.*';
    else if (character === '_') source += '.';
    else source += escapeRegularExpression(character);
  }
  return new RegExp(`^${source}$`, caseInsensitive ? 'isu' : 'su');
}

function escapeRegularExpression(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
