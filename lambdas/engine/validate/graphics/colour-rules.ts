/**
 * Colour (owned by the colour area): PDF/A output intents and their ICC
 * profiles, device colour spaces against the output intent, ICCBased colour
 * spaces, Separation and DeviceN. Each concept lives in its own file; this is
 * the list the registry imports.
 */
import type { Rule } from '../rule';
import { DEVICE_COLOUR_RULES } from './colour-device';
import { ICC_RULES } from './colour-icc';
import { OUTPUT_INTENT_RULES } from './colour-output-intent';
import { SEPARATION_RULES } from './colour-separation';

export const COLOUR_RULES: readonly Rule[] = [...OUTPUT_INTENT_RULES, ...DEVICE_COLOUR_RULES, ...ICC_RULES, ...SEPARATION_RULES];
