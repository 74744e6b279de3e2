/** Errors the artifact stores throw besides InvalidArtifactKeyError. */
import { NotFoundError } from '../errors.js';

/** `read` of a key that holds nothing. */
export class ArtifactNotFoundError extends NotFoundError {
  constructor(public readonly key: string) {
    super('artifact_not_found', `no artifact at ${key}`);
    this.name = 'ArtifactNotFoundError';
  }
}

/** A storage backend answered with a failure (e.g. an S3 error response). */
export class StorageError extends Error {
  constructor(
    message: string,
    /** HTTP status from an S3 endpoint, when there was one */
    public readonly status?: number,
    /** S3 error code such as `AccessDenied` or `NoSuchBucket` */
    public readonly code?: string,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}
