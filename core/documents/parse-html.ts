import { DomHandler, ElementType, Parser } from 'htmlparser2';

type HtmlDocument = DomHandler['root'];
type HtmlNode = HtmlDocument['children'][number];
type HtmlParent = HtmlDocument | Extract<HtmlNode, { children: unknown }>;

/**
 * Chromium's limit on the depth of the tree its HTML parser builds (`kMaximumHTMLParserDOMTreeDepth`
 * in third_party/blink/renderer/core/html/parser/html_construction_site.h). Past it an element is
 * attached to the parent of the element it opens in, so the tree stops growing deeper while every
 * element and every text stays (HTMLConstructionSite::AttachLater: "Add as a sibling of the parent if
 * we have reached the maximum depth allowed"). The walk in `reduceHtml` recurses once or more per
 * level: bounded like this, a page nested 100,000 deep reads as a browser shows it instead of
 * exhausting the call stack.
 */
export const maximumHtmlTreeDepth = 512;

/**
 * htmlparser2's document tree, built as a browser bounds it (see `maximumHtmlTreeDepth`) and in time
 * linear in the page's size however deep its tags nest.
 */
export function parseHtml(html: string): HtmlDocument {
  const handler = new DepthBoundedHandler();
  const parser = new Parser(handler);
  // htmlparser2 keeps its open elements newest first, with `unshift` and `shift`: each tag costs the
  // depth it opens at, so 40,000 unclosed tags (200 KB) took 4 s and 100,000 half a minute. The same
  // stacks kept newest last answer each of its operations at once.
  const internals = parser as unknown as { stack: unknown; foreignContext: unknown };
  if (Array.isArray(internals.stack)) internals.stack = newestFirstStack<string>();
  if (Array.isArray(internals.foreignContext)) {
    const contexts = newestFirstStack<number>();
    for (const context of [...(internals.foreignContext as number[])].reverse()) contexts.unshift(context);
    internals.foreignContext = contexts;
  }
  parser.end(html);
  return handler.root;
}

class DepthBoundedHandler extends DomHandler {
  protected override addNode(node: HtmlNode): void {
    const current = this.tagStack[this.tagStack.length - 1]!;
    const isElement = node.type === ElementType.Tag || node.type === ElementType.Script || node.type === ElementType.Style;
    // Text stays in the element it is written in; only elements are moved up, as in Chromium.
    const parent = isElement && this.tagStack.length > maximumHtmlTreeDepth && current.parent ? current.parent as HtmlParent : current;
    const previous = parent.children[parent.children.length - 1];
    parent.children.push(node);
    if (previous) {
      node.prev = previous;
      previous.next = node;
    }
    node.parent = parent;
    this.lastNode = null;
  }
}

/**
 * An array as htmlparser2's parser uses its stacks (`unshift`, `shift`, `[0]`, `[index]`,
 * `length`, `includes`, `indexOf`, `length = 0`), index 0 the newest, stored newest last so that
 * each operation is constant time: `indexOf` looks up where the newest element of that name is.
 */
function newestFirstStack<T>(): T[] {
  const items: T[] = [];
  const positions = new Map<T, number[]>();
  const operations = {
    unshift(item: T): number {
      const at = positions.get(item);
      if (at) at.push(items.length);
      else positions.set(item, [items.length]);
      return items.push(item);
    },
    shift(): T | undefined {
      const item = items.pop();
      if (item !== undefined) positions.get(item)?.pop();
      return item;
    },
    includes(item: T): boolean {
      return (positions.get(item)?.length ?? 0) > 0;
    },
    indexOf(item: T): number {
      const at = positions.get(item);
      return at && at.length > 0 ? items.length - 1 - at[at.length - 1]! : -1;
    },
  };
  return new Proxy(items, {
    get(target, property) {
      if (typeof property === 'string') {
        if (property === 'unshift' || property === 'shift' || property === 'includes' || property === 'indexOf') return operations[property];
        const first = property.charCodeAt(0);
        if (first >= 48 && first <= 57) return target[target.length - 1 - Number(property)];
      }
      return Reflect.get(target, property);
    },
    set(target, property, value) {
      if (property !== 'length') return false;
      // Keeping the `value` newest elements: htmlparser2 only empties its stacks.
      const dropped = target.splice(0, Math.max(0, target.length - Number(value)));
      if (dropped.length > 0) {
        positions.clear();
        target.forEach((item, index) => {
          const at = positions.get(item);
          if (at) at.push(index);
          else positions.set(item, [index]);
        });
      }
      return true;
    },
  });
}
