import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import {
  approximateTokenCount,
  documentText,
  pageMarker,
  pageOfQuote,
  pdfPagesText,
  reduceHtml,
  splitDocument,
  supportedDocumentExtensions,
  withoutPageMarkers,
  type PdfTextRun,
} from '../../core/documents/index.ts';
import { parseHtml } from '../../core/documents/parse-html.ts';
import { quoteOccursIn } from '../../core/extraction/quote-occurs-in.ts';
import { countTokens } from '../../node/runtime/count-tokens.ts';

const fixtures = new URL('../fixtures/worldcup-html/', import.meta.url);
const years = ['1930', '1986', '2014'] as const;
const pageHtml = Object.fromEntries(
  years.map((year) => [year, gunzipSync(readFileSync(new URL(`men-${year}-tournament.html.gz`, fixtures))).toString('utf8')]),
) as Record<(typeof years)[number], string>;
const pageText = Object.fromEntries(years.map((year) => [year, reduceHtml(pageHtml[year])])) as Record<
  (typeof years)[number],
  string
>;

const nonWhitespace = (text: string): string => text.replace(/\s+/g, '');
/** A part without the heading lines that `splitDocument` repeats from the sections it continues. */
const ownText = (part: string): string => part.replace(/^(?:#{1,6} .* \(continued\)\n)+\n/, '');
const lines = (text: string): string[] => text.split('\n');

describe('reduceHtml on World Cup Wikipedia pages', () => {
  it('keeps the infobox facts as "label | value" lines', () => {
    const text2014 = lines(pageText['2014']);
    expect(text2014).toContain('Host country | Brazil');
    expect(text2014.some((line) => line.startsWith('Goals scored | 171'))).toBe(true);
    expect(text2014.some((line) => line.startsWith('Attendance | 3,429,873'))).toBe(true);
    expect(lines(pageText['1930'])).toContain('Host country | Uruguay');
    expect(lines(pageText['1986'])).toContain('Host country | Mexico');
  });

  it('keeps prose sentences intact, without footnote markers inside them', () => {
    expect(pageText['2014']).toContain(
      'In the final, Germany defeated Argentina 1–0 after extra time to win the tournament and secure the country\'s fourth world title',
    );
    expect(pageText['1930']).toContain('The 1930 FIFA World Cup was the inaugural FIFA World Cup');
  });

  it('turns headings into markdown heading lines', () => {
    const text2014 = lines(pageText['2014']);
    expect(text2014[0]).toBe('# 2014 FIFA World Cup');
    expect(text2014).toContain('## Group stage');
    expect(text2014).toContain('### Group A');
  });

  it.each(years)('leaves no markup, edit links, footnote markers, scripts or styles in the %s page', (year) => {
    const text = pageText[year];
    expect(text).not.toContain('<');
    expect(text).not.toContain('[edit]');
    expect(text).not.toMatch(/\[\d+\]/);
    expect(text).not.toMatch(/\[nb \d+\]/);
    expect(text).not.toContain('function(');
    expect(text).not.toContain('{display');
    expect(text).not.toContain('mw-parser-output');
    expect(text).not.toContain('Jump to navigation');
    expect(text).not.toContain('From Wikipedia, the free encyclopedia');
    expect(text).not.toMatch(/\n{3}/);
  });

  it.each(years)('stops at the back-matter headings of the %s page', (year) => {
    const headings = lines(pageText[year]).filter((line) => line.startsWith('#'));
    for (const backMatter of ['References', 'External links', 'Notes', 'See also', 'Navigation menu']) {
      expect(headings).not.toContain(`## ${backMatter}`);
    }
    expect(pageText[year]).not.toContain('Retrieved');
    expect(pageText[year]).not.toContain('This page was last edited');
  });

  it('reduces each page to a small fraction of its HTML', () => {
    for (const year of years) {
      const ratio = pageHtml[year].length / pageText[year].length;
      console.log(`${year}: ${pageHtml[year].length} HTML characters → ${pageText[year].length} text characters (${ratio.toFixed(1)}×)`);
      expect(ratio).toBeGreaterThan(10);
    }
  });

  it('contains at least 90% of the long lines of an independently derived text of the 2014 page', () => {
    const reference = readFileSync(new URL('men-2014-tournament.txt', fixtures), 'utf8');
    const longLines = lines(reference)
      .map((line) => line.replace(/\s+/g, ' ').trim())
      .filter((line) => line.length > 40);
    const found = longLines.filter((line) => pageText['2014'].includes(line));
    expect(longLines.length).toBeGreaterThan(100);
    expect(found.length / longLines.length).toBeGreaterThanOrEqual(0.9);
  });
});

describe('reduceHtml on tables with rowspan and colspan', () => {
  const readPage = (year: string) => reduceHtml(gunzipSync(readFileSync(new URL(`men-${year}-tournament.html.gz`, fixtures))).toString('utf8'));

  it('gives both teams ranked 13th in the 1966 final standings their rank', () => {
    const standings = lines(readPage('1966'));
    expect(standings).toContain('13 | Chile | 4 | 3 | 0 | 1 | 2 | 2 | 5 | −3 | 1');
    expect(standings).toContain('13 | France | 1 | 3 | 0 | 1 | 2 | 2 | 5 | −3 | 1');
    expect(standings).toContain('Eliminated in the quarter-finals');
    expect(standings.some((line) => line.startsWith('France | 1 | 3'))).toBe(false);
  });

  it('keeps every 2022 stadium in the row of its city, with its capacity in the capacity column', () => {
    const text = readPage('2022');
    const table = lines(text.slice(text.indexOf('City | Stadium | Capacity'))).slice(0, 9);
    expect(table).toEqual([
      'City | Stadium | Capacity',
      'Lusail | Lusail Stadium | 88,966',
      'Al Khor | Al Bayt Stadium | 68,895',
      'Al Rayyan | Khalifa International Stadium | 45,857',
      'Al Rayyan | Ahmad bin Ali Stadium | 45,032',
      'Al Rayyan | Education City Stadium | 44,667',
      'Doha | Al Thumama Stadium | 44,400',
      'Doha | Stadium 974 | 44,089',
      'Al Wakrah | Al Janoub Stadium | 44,325',
    ]);
  });

  it('repeats a cell in every row and column it spans', () => {
    const html =
      '<table><tr><th rowspan="2">Team</th><th colspan="2">Goals</th></tr><tr><th>For</th><th>Against</th></tr>' +
      '<tr><td>Brazil</td><td rowspan="2">3</td><td>1</td></tr><tr><td>Chile</td><td>2</td></tr></table>';
    expect(reduceHtml(html)).toBe('Team | Goals | Goals\nTeam | For | Against\nBrazil | 3 | 1\nChile | 3 | 2');
  });

  it('places a cell after the columns that spans from above occupy, wherever they are', () => {
    const html =
      '<table><tr><td>a</td><td rowspan="2">b</td><td>c</td><td rowspan="2">d</td></tr><tr><td>e</td><td>f</td></tr></table>';
    expect(reduceHtml(html)).toBe('a | b | c | d\ne | b | f | d');
  });

  it('writes a row that is one cell across the whole table once, and pads short rows with empty cells', () => {
    const html =
      '<table><tr><th>R</th><th>Team</th><th>Pts</th></tr><tr><td colspan="3">Group stage</td></tr>' +
      '<tr><td>9</td><td>Italy</td></tr></table>';
    expect(reduceHtml(html)).toBe('R | Team | Pts\nGroup stage\n9 | Italy |');
  });

  it('ends a row span at the end of its row group, and reads rowspan="0" as "to the end of the group"', () => {
    const html =
      '<table><thead><tr><th rowspan="5">H</th><th>x</th></tr></thead>' +
      '<tbody><tr><td rowspan="0">z</td><td>1</td></tr><tr><td>2</td></tr><tr><td>3</td></tr></tbody>' +
      '<tbody><tr><td>y</td><td>4</td></tr></tbody></table>';
    expect(reduceHtml(html)).toBe('H | x\nz | 1\nz | 2\nz | 3\ny | 4');
  });

  it('treats unparsable or zero colspans as 1 and bounds huge ones by HTML\'s limit', () => {
    expect(reduceHtml('<table><tr><td colspan="x">a</td><td colspan="0">b</td><td colspan=" 2;">c</td></tr><tr><td>1</td><td>2</td><td>3</td><td>4</td></tr></table>'))
      .toBe('a | b | c | c\n1 | 2 | 3 | 4');
    const huge = reduceHtml('<table><tr><td>a</td><td colspan="99999999">b</td></tr><tr><td>1</td></tr></table>');
    expect(lines(huge)[0]!.split(' | ')).toHaveLength(1001);
  });

  it('writes each cell once in its own row when spans would repeat more than sixteen times the table\'s text', () => {
    // One cell across 1,000 columns and every row below: 10,000 rows (190 KB of HTML) made 40 MB of text.
    const html = `<table><tr><td colspan="1000" rowspan="0">Stock</td></tr>${'<tr><td>Widget</td></tr>'.repeat(2_000)}</table>`;
    expect(lines(reduceHtml(html))).toEqual(['Stock', ...Array(2_000).fill('Widget')]);
    const repeated = `<table><tr><td colspan="3" rowspan="0">Stock</td></tr>${'<tr><td>Widget</td></tr>'.repeat(3)}</table>`;
    expect(lines(reduceHtml(repeated))).toEqual(['Stock | Stock | Stock |', ...Array(3).fill('Stock | Stock | Stock | Widget')]);
  });

  it('keeps the first cell in a slot two spans overlap', () => {
    const html = '<table><tr><td>a</td><td rowspan="2">b</td></tr><tr><td colspan="2">c</td><td>d</td></tr></table>';
    expect(reduceHtml(html)).toBe('a | b |\nc | b | d');
  });
});

describe('reduceHtml on small pages', () => {
  it('decodes entities', () => {
    expect(reduceHtml('<p>Fish &amp; chips&nbsp;for&#160;two &#8211; &lt;b&gt; &eacute;t&#xE9;</p>')).toBe(
      'Fish & chips for two – <b> été',
    );
  });

  it('adds no spaces around inline tags and glues no words across blocks', () => {
    expect(reduceHtml('<p>A <b>4</b>-star hotel, <i>very</i> <a href="#">nice</a>.</p>')).toBe('A 4-star hotel, very nice.');
    expect(reduceHtml('<div>one</div><div>two</div><p>three</p>four<span>five</span>')).toBe('one\ntwo\n\nthree\n\nfourfive');
  });

  it('collapses whitespace within lines and keeps at most one blank line in a row', () => {
    expect(reduceHtml('<p>  a \n\n  b  </p>\n\n\n<p> </p><div></div><p>c\td</p>')).toBe('a b\n\nc d');
  });

  it('writes list items as "- item", nested lists indented, ordered lists numbered', () => {
    const html = '<ul><li>fruit<ul><li>apple</li><li>pear</li></ul></li><li>bread</li></ul><ol><li>first</li><li>second</li></ol>';
    expect(reduceHtml(html)).toBe('- fruit\n  - apple\n  - pear\n- bread\n\n1. first\n2. second');
  });

  it('writes one line per table row with cells joined by " | ", keeping empty cells in place', () => {
    const html =
      '<table><caption>Results</caption><thead><tr><th>Team</th><th>Pts</th><th>Note</th></tr></thead>' +
      '<tbody><tr><td>Brazil</td><td>7</td><td>host<br>winner</td></tr><tr><td></td><td> </td></tr>' +
      '<tr><td>Mexico</td><td></td><td>out</td></tr></tbody></table><p>After</p>';
    expect(reduceHtml(html)).toBe('Results\nTeam | Pts | Note\nBrazil | 7 | host winner\nMexico | | out\n\nAfter');
  });

  it('keeps the rows of a table nested in a layout table on their own lines', () => {
    const html =
      '<table><tr><td><table><tr><th>Team</th><th>City</th></tr><tr><td>Algeria</td><td>Sorocaba</td></tr></table></td>' +
      '<td><table><tr><td>Greece</td><td>Aracaju</td></tr></table></td></tr></table>';
    expect(reduceHtml(html)).toBe('Team | City\nAlgeria | Sorocaba\n\nGreece | Aracaju');
  });

  it('keeps the text of malformed tables as a browser places it: cells outside a row make a row, loose text comes first', () => {
    // What headless Chromium shows of these is in tests/fixtures/browser-text/browser-text.json.
    expect(reduceHtml('<table><table><tr><td>Widget 9</td><td>4.50</td></tr></table>')).toBe('Widget 9 | 4.50');
    expect(reduceHtml('<table>Prices in EUR<td>Widget</td><td>9</td></td><tr><td>Gadget</td><td>12</td></tr></table>'))
      .toBe('Prices in EUR\n\nWidget | 9\nGadget | 12');
    expect(reduceHtml('<table><tbody><td>Gadget</td><td>12</td></tbody></table><p>After</p>')).toBe('Gadget | 12\n\nAfter');
    expect(reduceHtml('<table><tr><td>A</td><table><tr><td>inner</td></tr></table><td>B</td></tr></table>')).toBe('A\n\ninner\n\nB');
  });

  it('drops hidden elements, scripts, styles, navigation and Wikipedia chrome', () => {
    const html =
      '<html><head><title>T</title><style>p{color:red}</style></head><body><nav>menu</nav>' +
      '<p>shown</p><p style="display: none">hidden one</p><div hidden>hidden two</div>' +
      '<script>var x = function() {};</script><noscript>enable js</noscript><template><p>tpl</p></template>' +
      '<h2>Fact<span class="mw-editsection">[edit]</span></h2><p>True<sup class="reference">[1]</sup>.</p>' +
      '<div id="toc">Contents</div><div class="navbox">Other cups</div><aside>ad</aside><footer>foot</footer></body></html>';
    expect(reduceHtml(html)).toBe('shown\n\n## Fact\n\nTrue.');
  });

  it('ends the line at <br> and leaves a blank line at two in a row', () => {
    expect(reduceHtml('<p>line one<br>line two<br/><br>after blank</p>')).toBe('line one\nline two\n\nafter blank');
  });

  it('cuts the page at a back-matter heading, but not at the same words in a paragraph', () => {
    const html =
      '<h1>Title</h1><p>Body</p><p>See also the appendix.</p><h2>Details</h2><p>More</p>' +
      '<h2>See also</h2><ul><li>Other</li></ul><h2>Later</h2><p>gone</p>';
    expect(reduceHtml(html)).toBe('# Title\n\nBody\n\nSee also the appendix.\n\n## Details\n\nMore');
  });

  it('keeps the lines of preformatted text', () => {
    expect(reduceHtml('<p>Code:</p><pre>a  = 1\n  b = 2\n</pre>')).toBe('Code:\n\na  = 1\n  b = 2');
  });
});

/** A text run as pdf.js reports it, about half an em wide per character. */
const run = (text: string, x: number, y: number, fontSize = 10): PdfTextRun => ({ text, x, y, fontSize, width: text.length * fontSize * 0.5 });

describe('reduceHtml on pages nested deeper than a browser builds', () => {
  const nested = (depth: number, inside: string) => `${'<div>'.repeat(depth)}${inside}${'</div>'.repeat(depth)}`;

  it('reads a page nested 100,000 deep, and stray end tags under it, without exhausting the call stack', () => {
    expect(reduceHtml(nested(100_000, 'deep text'))).toBe('deep text');
    expect(reduceHtml(`${'<div>'.repeat(100_000)}${'</span>'.repeat(100_000)}<p>still read</p>`)).toBe('still read');
    expect(reduceHtml(`${'<div>'.repeat(50_000)}${'<p>x'.repeat(50_000)}`).split('\n\n')).toHaveLength(50_000);
  });

  it('stops nesting past 512 levels as Chromium does, so an element past them follows the text of its parent', () => {
    expect(reduceHtml(nested(500, 'before<div>inner</div>after'))).toBe('before\ninner\nafter');
    expect(reduceHtml(nested(600, 'before<div>inner</div>after'))).toBe('beforeafter\ninner');
  });

  it('builds the same tree as htmlparser2 itself on real pages', () => {
    for (const year of years) expect(DomUtils.getOuterHTML(parseHtml(pageHtml[year]))).toBe(DomUtils.getOuterHTML(parseDocument(pageHtml[year])));
  });
});

describe('pdfPagesText', () => {
  it('opens every page with its marker and marks a page without text', () => {
    const text = pdfPagesText([[run('First page.', 72, 700)], [], [run('Third page.', 72, 700)]]);
    expect(text).toBe('--- page 1 ---\n\nFirst page.\n\n--- page 2 (no text layer) ---\n\n--- page 3 ---\n\nThird page.');
  });

  it('joins the runs of a line in left-to-right order, with a space only where the PDF leaves a gap', () => {
    const text = pdfPagesText([[run('oors', 128, 700), run('on eight ', 72, 700), run('fl', 118, 700), run(' 2', 160, 703.5, 6)]]);
    expect(text).toBe('--- page 1 ---\n\non eight floors 2');
  });

  it('separates paragraphs by their wider gaps and keeps wrapped lines together', () => {
    const text = pdfPagesText([[
      run('The hotel has 240 rooms', 72, 700), run('on eight floors.', 72, 688),
      run('Breakfast is served', 72, 668), run('from seven.', 72, 656),
    ]]);
    expect(text).toBe('--- page 1 ---\n\nThe hotel has 240 rooms\non eight floors.\n\nBreakfast is served\nfrom seven.');
  });

  it('turns larger lines into headings ranked by size, and joins a heading set on two lines', () => {
    const text = pdfPagesText([[
      run('Annual report', 72, 740, 24), run('of the year', 72, 714, 24),
      run('Body text that is long enough to be the body size.', 72, 690),
      run('Revenue', 72, 660, 16), run('Revenue rose in every quarter of the year.', 72, 640),
    ], [run('Costs', 72, 740, 16), run('Costs fell.', 72, 720)]]);
    expect(text).toBe([
      '--- page 1 ---', '', '# Annual report of the year', '', 'Body text that is long enough to be the body size.', '',
      '## Revenue', '', 'Revenue rose in every quarter of the year.', '', '--- page 2 ---', '', '## Costs', '', 'Costs fell.',
    ].join('\n'));
  });

  it('writes aligned columns as table rows, with empty cells where a row has no value', () => {
    const text = pdfPagesText([[
      run('Stadiums in use:', 72, 720),
      run('City', 72, 700), run('Stadium', 180, 700), run('Capacity', 330, 700),
      run('Lusail', 72, 686), run('Lusail Stadium', 180, 686), run('88,966', 345, 686),
      run('Ahmad bin Ali Stadium', 180, 672), run('45,032', 345, 672),
      run('Doha', 72, 658), run('Stadium 974', 180, 658), run('44,089', 345, 658),
      run('All eight are air-conditioned.', 72, 630),
    ]]);
    expect(text).toBe([
      '--- page 1 ---', '', 'Stadiums in use:', '', 'City | Stadium | Capacity', 'Lusail | Lusail Stadium | 88,966',
      '| Ahmad bin Ali Stadium | 45,032', 'Doha | Stadium 974 | 44,089', '', 'All eight are air-conditioned.',
    ].join('\n'));
  });

  it('keeps a one-value row inside its table, and right-aligned numbers under their column', () => {
    const text = pdfPagesText([[
      run('Team', 72, 700), run('Goals', 200, 700),
      run('Italy', 72, 686), run('12', 210, 686),
      run('Spain', 72, 672),
      run('Brazil', 72, 658), run('7', 215, 658),
    ]]);
    expect(text).toBe('--- page 1 ---\n\nTeam | Goals\nItaly | 12\nSpain |\nBrazil | 7');
  });

  it('keeps sub-columns apart under a header cell that spans them', () => {
    const text = pdfPagesText([[
      run('Team', 72, 714), run('Goals', 216, 714),
      run('For', 200, 700), run('Against', 250, 700),
      run('Brazil', 72, 686), run('3', 205, 686), run('1', 265, 686),
      run('Chile', 72, 672), run('2', 205, 672), run('4', 265, 672),
    ]]);
    expect(lines(text).slice(2)).toEqual(['Team | Goals |', '| For | Against', 'Brazil | 3 | 1', 'Chile | 2 | 4']);
  });

  it('keeps the reading order of a two-column page as the PDF draws it, without making a table of it', () => {
    const left = ['The left column starts here and', 'runs down the page to its end.'];
    const right = ['The right column follows after', 'the left one, as readers expect.'];
    const text = pdfPagesText([[
      ...left.map((line, index) => run(line, 72, 700 - 12 * index)),
      ...right.map((line, index) => run(line, 320, 700 - 12 * index)),
    ]]);
    expect(text).toBe(`--- page 1 ---\n\n${left.join('\n')}\n\n${right.join('\n')}`);
  });

  it('ignores runs that are only spaces, and lines far apart on one line are not a table alone', () => {
    expect(pdfPagesText([[run('ACME Corp', 72, 760), run(' ', 130, 760), run('Annual report', 400, 760), run('Body.', 72, 700)]]))
      .toBe('--- page 1 ---\n\nACME Corp Annual report\n\nBody.');
  });
});

describe('page markers', () => {
  const text = ['--- page 1 ---', '', 'The hotel opened in', '', '--- page 2 ---', '', '1998 and has a pool.', '', '--- page 3 (no text layer) ---'].join('\n');

  it('are left out when a quote is checked, so a quote may run across a page break', () => {
    expect(quoteOccursIn('The hotel opened in 1998', text)).toBe(true);
    expect(quoteOccursIn('opened in --- page 2 --- 1998', text)).toBe(true);
    expect(quoteOccursIn('The hotel opened in 1999', text)).toBe(false);
    expect(withoutPageMarkers(text)).not.toContain('page');
  });

  it('name the page a quote is on, or the two pages it runs across', () => {
    expect(pageOfQuote(text, '1998 and has a pool')).toEqual({ first: 2, last: 2 });
    expect(pageOfQuote(text, 'The hotel opened in 1998')).toEqual({ first: 1, last: 2 });
    expect(pageOfQuote(text, 'a pool in 1997')).toBeNull();
    expect(pageOfQuote('No markers in this text.', 'No markers')).toBeNull();
  });

  it('are whole lines in a fixed format', () => {
    expect(pageMarker(12)).toBe('--- page 12 ---');
    expect(pageMarker(3, 'no text layer')).toBe('--- page 3 (no text layer) ---');
  });
});

describe('documentText', () => {
  it('reduces .html and .htm files, whatever the case of the extension', () => {
    expect(documentText('pages/a.html', '<p>Hello <b>there</b></p>')).toBe('Hello there');
    expect(documentText('pages/B.HTM', '\uFEFF<h1>Title</h1>')).toBe('# Title');
  });

  it('renders parsable .json as "key: value" lines with dotted keys and indexed arrays', () => {
    const json = JSON.stringify({
      name: 'Hotel Roma',
      address: { city: 'Rome', geo: { lat: 41.9 } },
      rooms: [{ type: 'single', price: 80 }, 'suite'],
      tags: [],
      open: true,
      rating: null,
    });
    expect(documentText('data/hotel.JSON', json)).toBe(
      [
        'name: Hotel Roma',
        'address.city: Rome',
        'address.geo.lat: 41.9',
        'rooms[0].type: single',
        'rooms[0].price: 80',
        'rooms[1]: suite',
        'tags: []',
        'open: true',
        'rating: null',
      ].join('\n'),
    );
    expect(documentText('list.json', '[{"a": 1}, 2]')).toBe('[0].a: 1\n[1]: 2');
    expect(documentText('scalar.json', '"just text"')).toBe('just text');
  });

  it('reads JSON nested thousands deep, and keeps as raw text one whose key paths would make it many times its size', () => {
    expect(documentText('deep.json', `${'['.repeat(3000)}"Widget 9"${']'.repeat(3000)}`)).toBe(`${'[0]'.repeat(3000)}: Widget 9`);
    expect(documentText('deeper.json', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`)).toBe(`${Array(100_000).fill('a').join('.')}: 1`);
    // A value at each of 30,000 levels: 360 KB whose lines would take 1.8 GB.
    const bomb = `${'{"x":1,"a":'.repeat(30_000)}1${'}'.repeat(30_000)}`;
    expect(documentText('bomb.json', bomb)).toBe(bomb);
  });

  it('keeps broken .json as its raw text', () => {
    expect(documentText('broken.json', '{"name": "Hotel",\r\n "stars": ')).toBe('{"name": "Hotel",\n "stars": ');
  });

  it('keeps .md, .markdown, .txt and unknown files as text without a BOM or carriage returns', () => {
    for (const path of ['notes.md', 'notes.markdown', 'notes.TXT', 'notes.csv', 'README']) {
      expect(documentText(path, '\uFEFF# Title\r\n\r\nBody <b>kept</b>\r\n')).toBe('# Title\n\nBody <b>kept</b>\n');
    }
  });

  it('lists the supported extensions', () => {
    expect([...supportedDocumentExtensions]).toEqual(['.txt', '.md', '.markdown', '.html', '.htm', '.json']);
  });
});

describe('token counting', () => {
  it('estimates a quarter token per character, rounded up', () => {
    expect(approximateTokenCount('')).toBe(0);
    expect(approximateTokenCount('abcd')).toBe(1);
    expect(approximateTokenCount('abcde')).toBe(2);
  });

  it('counts o200k tokens and treats special-token markers as plain text', () => {
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('')).toBe(0);
    expect(countTokens('end <|endoftext|>')).toBeGreaterThan(1);
  });
});

describe('splitDocument', () => {
  it('returns the text unchanged as the only part when it fits', () => {
    const text = '  # Title\n\nShort body.\n';
    expect(splitDocument(text, 100, countTokens)).toEqual([text]);
  });

  it('rejects a limit below one token', () => {
    expect(() => splitDocument('text', 0, countTokens)).toThrow(RangeError);
  });

  it.each(years)('splits the reduced %s page into as few balanced parts of at most 2000 tokens as fit, often at headings, losing nothing', (year) => {
    const text = pageText[year];
    const parts = splitDocument(text, 2000, countTokens);
    const sizes = parts.map((part) => countTokens(part));
    expect(parts.length).toBe(Math.ceil(countTokens(text) / 2000));
    for (const size of sizes) expect(size).toBeLessThanOrEqual(2000);
    expect(Math.min(...sizes) / Math.max(...sizes)).toBeGreaterThan(0.6);
    const startingAtHeading = parts.filter((part) => ownText(part).startsWith('#'));
    expect(startingAtHeading.length / parts.length).toBeGreaterThanOrEqual(0.5);
    expect(nonWhitespace(parts.map(ownText).join('\n'))).toBe(nonWhitespace(text));
  });

  it('cuts a document just over the limit into two halves, not a full part and a small tail', () => {
    const paragraphs = Array.from({ length: 300 }, (_, index) => `Paragraph ${index} reports that the hotel has ${index + 3} rooms and a garden.`);
    const text = paragraphs.join('\n\n');
    const total = countTokens(text);
    const limit = Math.floor(total * 0.97);
    const parts = splitDocument(text, limit, countTokens);
    expect(parts).toHaveLength(2);
    for (const part of parts) expect(Math.abs(countTokens(part) - total / 2) / (total / 2)).toBeLessThan(0.15);
    expect(nonWhitespace(parts.join(''))).toBe(nonWhitespace(text));
  });

  it('gives the last of several parts its share too', () => {
    const paragraphs = Array.from({ length: 400 }, (_, index) => `Line ${index}: revenue rose by ${index % 17} percent in the quarter.`);
    const text = paragraphs.join('\n');
    const limit = Math.ceil(countTokens(text) / 4.1);
    const sizes = splitDocument(text, limit, countTokens).map((part) => countTokens(part));
    expect(sizes).toHaveLength(5);
    const share = sizes.reduce((sum, size) => sum + size, 0) / sizes.length;
    for (const size of sizes) expect(Math.abs(size - share) / share).toBeLessThan(0.2);
  });

  it('fills parts greedily when balance is turned off, for fixed-size chunks and prefixes', () => {
    const paragraphs = Array.from({ length: 300 }, (_, index) => `Paragraph ${index} reports that the hotel has ${index + 3} rooms and a garden.`);
    const text = paragraphs.join('\n\n');
    const limit = Math.floor(countTokens(text) * 0.97);
    const parts = splitDocument(text, limit, countTokens, { balanced: false });
    expect(parts).toHaveLength(2);
    expect(countTokens(parts[0]!)).toBeGreaterThan(limit * 0.98);
    expect(nonWhitespace(parts.join(''))).toBe(nonWhitespace(text));
  });

  it('ends a part at a section heading near its share rather than at a line on it', () => {
    const section = (name: string, lineCount: number) =>
      `## ${name}\n\n${Array.from({ length: lineCount }, (_, index) => `${name} line ${index} with some words.`).join('\n')}\n\n`;
    const text = `# Book\n\n${section('Alpha', 26)}${section('Beta', 24)}`;
    const parts = splitDocument(text, Math.ceil(countTokens(text) * 0.6), countTokens);
    expect(parts).toHaveLength(2);
    expect(parts[1]).toMatch(/^# Book \(continued\)\n\n## Beta\n/);
  });

  it('starts a part cut inside a section with the headings it continues', () => {
    const section = (name: string, lineCount: number) =>
      `## ${name}\n\n${Array.from({ length: lineCount }, (_, index) => `${name} line ${index} with some words.`).join('\n')}\n\n`;
    const text = `# Book\n\nIntro.\n\n${section('Alpha', 40)}${section('Beta', 12)}`;
    const parts = splitDocument(text, 130, countTokens);
    for (const part of parts) expect(countTokens(part)).toBeLessThanOrEqual(130);
    const continuing = parts.filter((part) => part.startsWith('# Book (continued)\n## Alpha (continued)\n\nAlpha line'));
    expect(continuing.length).toBeGreaterThan(0);
    expect(parts.some((part) => part.startsWith('# Book (continued)\n\n## Beta\n'))).toBe(true);
    expect(nonWhitespace(parts.map(ownText).join(''))).toBe(nonWhitespace(text));
  });

  it('packs whole paragraphs when there are no headings', () => {
    const paragraphs = Array.from({ length: 40 }, (_, index) => `Paragraph ${index} says something. It has two sentences.`);
    const parts = splitDocument(paragraphs.join('\n\n'), 100, countTokens);
    for (const part of parts) {
      expect(countTokens(part)).toBeLessThanOrEqual(100);
      expect(part).toMatch(/^Paragraph \d+ says/);
      expect(part).toMatch(/two sentences\.$/);
    }
    expect(nonWhitespace(parts.join(''))).toBe(nonWhitespace(paragraphs.join('')));
  });

  it('hard-cuts a single 50,000-character line of words at word starts', () => {
    const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
    let line = '';
    for (let index = 0; line.length < 50_000; index += 1) line += `${words[index % words.length]}${index} `;
    line = line.slice(0, 50_000).trimEnd();
    const parts = splitDocument(line, 500, countTokens);
    expect(parts.length).toBeGreaterThan(10);
    for (const part of parts) {
      expect(countTokens(part)).toBeLessThanOrEqual(500);
      expect(line).toMatch(new RegExp(`(^|\\s)${part.slice(0, 12)}`));
    }
    expect(nonWhitespace(parts.join(''))).toBe(nonWhitespace(line));
  });

  it('hard-cuts a 50,000-character line without spaces', () => {
    let line = '';
    for (let index = 0; line.length < 50_000; index += 1) line += `x${index.toString(36)}`;
    line = line.slice(0, 50_000);
    const parts = splitDocument(line, 300, countTokens);
    for (const part of parts) expect(countTokens(part)).toBeLessThanOrEqual(300);
    expect(parts.join('')).toBe(line);
  });

  it('terminates when the limit is smaller than a heading line', () => {
    const text = '# A heading line much longer than the limit allows\n\nBody text.\n\n## Another long heading here\n\nMore body.';
    const parts = splitDocument(text, 3, countTokens);
    for (const part of parts) expect(countTokens(part)).toBeLessThanOrEqual(3);
    expect(nonWhitespace(parts.join(''))).toBe(nonWhitespace(text));
  });

  it('works with the approximate counter, as in Apps Script', () => {
    const text = pageText['1986'];
    const parts = splitDocument(text, 1500, approximateTokenCount);
    for (const part of parts) expect(approximateTokenCount(part)).toBeLessThanOrEqual(1500);
    expect(nonWhitespace(parts.map(ownText).join(''))).toBe(nonWhitespace(text));
  });
});
