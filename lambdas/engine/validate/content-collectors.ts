/** The collectors watching the one content pass (content-pass.ts), one per area that reads content. */
import type { ContentCollector } from './content-collector';
import { operatorUse } from './file-structure/operator-use';
import { streamsRun } from './file-structure/streams-run';
import { colourUse } from './graphics/colour-use';
import { graphicsUse } from './graphics/graphics-use';
import { glyphUse } from './fonts/glyph-use';
import { markedContent } from './structure/marked-content';

export const CONTENT_COLLECTORS: readonly ContentCollector<unknown>[] = [operatorUse, streamsRun, colourUse, graphicsUse, glyphUse, markedContent] as ContentCollector<unknown>[];
