/** The small, fast render the CLI tests ask for: one place, so every test renders the same thing. */

/** A 256x256 frame at the fast profile (`render`, `models preview`). */
export const SIZE_256_FAST = ['--width', '256', '--height', '256', '--profile', 'fast'] as const;

/** A 256x256 sprite at the fast profile (`render`). */
export const SPRITE_256_FAST = ['--format', 'sprite', ...SIZE_256_FAST] as const;
