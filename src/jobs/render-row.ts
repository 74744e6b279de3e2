/** A row of `renders` as the job code reads it. */
import type { Selectable } from 'kysely';
import type { RendersTable } from '../db/schema.js';

export type RenderRow = Selectable<RendersTable>;

/** Artifact keys of a render, by kind. */
export interface RenderArtifacts {
  video?: string;
  sprite?: string;
  screenshot?: string;
}
