/**
 * Makes a page tree safe for pdf-lib to walk before anything asks for pages.
 * pdf-lib's traversal follows /Kids recursively and trusts them to form a tree:
 * a /Kids entry pointing back at an ancestor recurses until the stack
 * overflows, and one intermediate node listed under many parents (a "tree"
 * that is really a lattice) is walked once per path, which grows exponentially
 * with the depth. Both are removed here, the way viewers skip them: the pages
 * reachable along the first path are kept, the repeated references dropped.
 * A node whose /Kids is missing or not an array gets an empty one (pdf-lib
 * throws on it otherwise). Pages (leaves) listed twice stay: that shows the page
 * twice, as viewers do, and costs nothing to walk. A catalog whose /Pages is
 * a page rather than a tree (realworld/pdfjs/issue21436.pdf) gets a one-page
 * tree holding it, as pdf.js and poppler read it.
 */
import { PDFArray, PDFDict, PDFName, PDFPageLeaf, PDFPageTree, PDFRef, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';

export interface PageTreeRepairs {
  /** /Kids references removed because they pointed at an ancestor or an already walked node. */
  removedKids: number;
  /** Nodes given an empty /Kids because theirs was missing or not an array. */
  emptiedNodes: number;
  /** The catalog's /Pages was a single page, now wrapped in a tree. */
  wrappedPage: boolean;
}

const KIDS = PDFName.of('Kids');

export function repairPageTree(doc: PDFDocument): PageTreeRepairs {
  const repairs: PageTreeRepairs = { removedKids: 0, emptiedNodes: 0, wrappedPage: false };
  const context = doc.context;
  const pagesRef = doc.catalog.get(PDFName.of('Pages'));
  if (pagesRef instanceof PDFRef && context.lookup(pagesRef) instanceof PDFPageLeaf) {
    const tree = PDFPageTree.withContext(context);
    tree.pushLeafNode(pagesRef);
    const treeRef = context.register(tree);
    (context.lookup(pagesRef) as PDFPageLeaf).setParent(treeRef);
    doc.catalog.set(PDFName.of('Pages'), treeRef);
    repairs.wrappedPage = true;
  }
  const root = context.lookup(doc.catalog.get(PDFName.of('Pages')));
  if (!(root instanceof PDFPageTree)) return repairs;

  // Iterative depth-first walk: a hostile tree may be far deeper than the stack.
  const walked = new Set<PDFDict>([root]);
  const onPath = new Set<PDFDict>([root]);
  const stack: { node: PDFDict; kids: PDFArray; next: number }[] = [{ node: root, kids: kidsOf(root, repairs), next: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.kids.size()) {
      onPath.delete(frame.node);
      stack.pop();
      continue;
    }
    const kid = resolveKid(context, frame.kids.get(frame.next));
    if (!(kid instanceof PDFPageTree)) {
      frame.next++;
      continue;
    }
    if (onPath.has(kid) || walked.has(kid)) {
      frame.kids.remove(frame.next);
      repairs.removedKids++;
      continue;
    }
    frame.next++;
    walked.add(kid);
    onPath.add(kid);
    stack.push({ node: kid, kids: kidsOf(kid, repairs), next: 0 });
  }
  return repairs;
}

function kidsOf(node: PDFDict, repairs: PageTreeRepairs): PDFArray {
  const kids = node.context.lookup(node.get(KIDS));
  if (kids instanceof PDFArray) return kids;
  const empty = node.context.obj([]);
  node.set(KIDS, empty);
  repairs.emptiedNodes++;
  return empty;
}

function resolveKid(context: PDFDocument['context'], obj: PDFObject | undefined): PDFObject | undefined {
  return obj instanceof PDFRef ? context.lookup(obj) : obj;
}
