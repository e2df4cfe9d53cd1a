import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalPathsByDirectory } from '../../node/runtime/canonical-paths-by-directory.ts';
import { expandDocumentPaths } from '../../node/runtime/expand-document-paths.ts';
import { friendlyPath, friendlyPaths } from '../../node/runtime/friendly-path.ts';

/** A small tree: docs/{a.md,b.txt,sub/c.md,[x]/d.md} and notes/e.md. */
function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'srag-globs-'));
  for (const file of ['docs/a.md', 'docs/b.txt', 'docs/sub/c.md', 'docs/[x]/d.md', 'notes/e.md']) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), file);
  }
  return root;
}

const identities = (patterns: string[]) => expandDocumentPaths(patterns).map((path) => path.identity);

describe('document globs', () => {
  it('finds the same files for a glob written absolute or relative, whatever its shape', () => {
    const root = tree();
    const relativeRoot = relative(process.cwd(), root);
    const cases: Array<[string, string[]]> = [
      ['docs/*', ['docs/a.md', 'docs/b.txt']],
      ['docs/**/*.md', ['docs/[x]/d.md', 'docs/a.md', 'docs/sub/c.md']],
      ['{docs,notes}/*.md', ['docs/a.md', 'notes/e.md']],
      ['docs/[ab]*', ['docs/a.md', 'docs/b.txt']],
      ['*/a.md', ['docs/a.md']],
      ['docs/nothing-*', []],
    ];
    for (const [pattern, expected] of cases) {
      const wanted = expected.map((file) => join(root, file)).sort();
      expect({ pattern, found: identities([join(root, pattern)]).sort() }).toEqual({ pattern, found: wanted });
      expect({ pattern, found: identities([join(relativeRoot, pattern)]).sort() }).toEqual({ pattern, found: wanted });
    }
  });

  it('reads a backslash in a glob as an escape, in a file name and in a directory name', () => {
    const root = mkdtempSync(join(tmpdir(), 'srag-globs-escaped-'));
    for (const file of ['docs/x[1].md', 'docs/y.md', 'set[2]/z.md']) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), file);
    }
    expect(identities([join(root, 'docs/*\\[1\\].md')])).toEqual([join(root, 'docs/x[1].md')]);
    expect(identities([join(root, 'set\\[2\\]/*.md')])).toEqual([join(root, 'set[2]/z.md')]);
  });

  it('labels matches as the glob named them: relative to the working directory when inside it, else absolute', () => {
    const root = tree();
    const labels = expandDocumentPaths([join(root, 'docs/*')]).map((path) => path.label);
    const inside = !relative(process.cwd(), root).startsWith('..');
    expect(labels).toEqual(['docs/a.md', 'docs/b.txt'].map((file) => (inside ? relative(process.cwd(), join(root, file)) : join(root, file))));
  });
});

describe('canonical paths of many files', () => {
  it('gives each file the identity realpath gives it, resolving each directory once and each link whole', () => {
    const root = realpathSync.native(tree());
    mkdirSync(join(root, 'elsewhere'));
    writeFileSync(join(root, 'elsewhere/f.md'), 'f');
    symlinkSync(join(root, 'elsewhere'), join(root, 'docs/linked-directory'));
    symlinkSync(join(root, 'notes/e.md'), join(root, 'docs/linked-file.md'));
    symlinkSync(join(root, 'nowhere.md'), join(root, 'docs/dangling.md'));
    // Written out, not joined: join would take `..` away.
    const paths = ['docs/a.md', 'docs/b.txt', 'docs/sub/c.md', 'docs/sub/../a.md', 'docs/linked-directory/f.md', 'docs/linked-file.md'].map((path) => `${root}/${path}`);
    const resolved: string[] = [];
    const canonical = canonicalPathsByDirectory((path) => { resolved.push(path); return realpathSync.native(path); }, 'linux');
    const identities = paths.map(canonical);
    expect(identities).toEqual(paths.map((path) => realpathSync.native(path)));
    expect(identities).toEqual([...paths.slice(0, 3), join(root, 'docs/a.md'), join(root, 'elsewhere/f.md'), join(root, 'notes/e.md')]);
    // docs, docs/sub, docs/sub/.., docs/linked-directory once each; the link to a file whole.
    expect(resolved.sort()).toEqual([`${root}/docs`, `${root}/docs/linked-directory`, `${root}/docs/linked-file.md`, `${root}/docs/sub`, `${root}/docs/sub/..`]);
    expect(() => canonical(join(root, 'docs/dangling.md'))).toThrow(/ENOENT/);
    expect(() => canonical(join(root, 'docs/missing.md'))).toThrow(/ENOENT/);
  });

  it('gives the same identities from a directory\'s listing as from each file\'s lstat, links and missing files included', () => {
    const root = realpathSync.native(tree());
    mkdirSync(join(root, 'elsewhere'));
    writeFileSync(join(root, 'elsewhere/f.md'), 'f');
    symlinkSync(join(root, 'elsewhere/f.md'), join(root, 'docs/linked-file.md'));
    symlinkSync(join(root, 'nowhere.md'), join(root, 'docs/dangling.md'));
    const paths = ['docs/a.md', 'docs/b.txt', 'docs/linked-file.md', 'docs/sub/c.md', 'docs/a.md'].map((path) => `${root}/${path}`);
    for (const listingAfter of [0, 1, 32]) {
      const resolved: string[] = [];
      const canonical = canonicalPathsByDirectory((path) => { resolved.push(path); return realpathSync.native(path); }, 'linux', listingAfter);
      expect(paths.map(canonical)).toEqual([...paths.slice(0, 2), join(root, 'elsewhere/f.md'), ...paths.slice(3)]);
      expect(resolved.sort()).toEqual([`${root}/docs`, `${root}/docs/linked-file.md`, `${root}/docs/sub`]);
      expect(() => canonical(join(root, 'docs/dangling.md'))).toThrow(/ENOENT/);
      // Not in the listing (made after it was read): found by its own lstat.
      writeFileSync(join(root, `docs/late-${listingAfter}.md`), 'late');
      expect(canonical(join(root, `docs/late-${listingAfter}.md`))).toBe(join(root, `docs/late-${listingAfter}.md`));
      expect(() => canonical(join(root, 'docs/missing.md'))).toThrow(/ENOENT/);
    }
  });
});

describe('paths shown from the working directory', () => {
  it('shows each path of a glob as friendlyPath shows it, plain or not, relative or absolute', () => {
    const here = process.cwd();
    const paths = [
      'docs/a.md', 'a.md', '..a/b.md', '../docs/a.md', './docs/a.md', 'docs/./a.md', 'docs//a.md', 'docs/sub/../a.md', 'docs/', '.', '..',
      `${here}/docs/a.md`, `${here}/..x/a.md`, `${here}/../elsewhere/a.md`, `${here}`, `${here}/`, `${here}x/a.md`, '/', '/etc/hosts', `${here}/./a.md`, `${here}//a.md`,
    ];
    const friendly = friendlyPaths();
    for (const path of paths) {
      for (const absolute of [true, false]) expect({ path, absolute, shown: friendly(path, absolute) }).toEqual({ path, absolute, shown: friendlyPath(path, absolute) });
      expect({ path, shown: friendly(path) }).toEqual({ path, shown: friendlyPath(path) });
    }
  });
});
