/**
 * A build's saved interactive state (docs/design-decisions.md, "Saved interactive state"): case-fan slots, the radiator's
 * slot, RGB colour. Saved with a build, applied by `/render-by-share-code`, hashed into the
 * render's cache key and read by the stage (farm/src/layout/placement.ts).
 */
import { z } from 'zod';

/** `<panel>-<n>`; how many slots a case has depends on its size and fan size (the stage derives them). */
export const SLOT_PATTERN = /^(front|top|rear|bottom|side)-[1-9]$/;
export const interactiveStateSchema = z
  .object({
    fans: z
      .array(z.object({ slot: z.string().regex(SLOT_PATTERN), partId: z.string().min(1).optional() }).strict())
      .max(24)
      .optional(),
    radiator: z
      .object({ slot: z.string().regex(/^(front|top|rear|bottom|side)$/) })
      .strict()
      .optional(),
    rgb: z
      .object({
        color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
        mode: z.enum(['static', 'off']).default('static'),
      })
      .strict()
      .optional(),
  })
  .strict();
export type InteractiveState = z.infer<typeof interactiveStateSchema>;
