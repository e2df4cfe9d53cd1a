/**
 * Words that say what to compute, not what to compute it over ("how many", "average", "the"):
 * they take no part in choosing tables. Kept short on purpose: a word that names data ("price",
 * "number", "name") must stay, even when many tables share it; its weight falls with its spread.
 */
export const stopWords: ReadonlySet<string> = new Set([
  'a', 'about', 'above', 'across', 'after', 'all', 'an', 'and', 'any', 'are', 'as', 'at', 'average', 'be', 'been', 'below', 'between',
  'both', 'by', 'can', 'count', 'did', 'do', 'does', 'each', 'every', 'for', 'from', 'give', 'had', 'has', 'have', 'how', 'i', 'in',
  'into', 'is', 'it', 'its', 'least', 'less', 'list', 'many', 'mean', 'more', 'most', 'much', 'my', 'no', 'not', 'of', 'on', 'or',
  'other', 'our', 'over', 'show', 'sum', 's', 'than', 'that', 'the', 'their', 'them', 'there', 'these', 'they', 'this', 'those', 'to',
  'total', 'under', 'was', 'we', 'were', 'what', 'when', 'where', 'which', 'who', 'whose', 'why', 'with', 'within', 'without', 'you',
  'highest', 'lowest', 'largest', 'smallest', 'biggest', 'fewest', 'greatest', 'top', 'per', 'overall', 'one', 'two', 'three',
]);
