/** Errors the artifact stores throw besides InvalidArtifactKeyError. */
import { InternalError, NotFoundError } from '../errors.js';

/** `read` of a key that holds nothing. */
export class ArtifactNotFoundError extends NotFoundError {
  constructor(public readonly key: string) {
    super('artifact_not_found', `no artifact at ${key}`);
    this.name = 'ArtifactNotFoundError';
  }
}

/**
 * A storage backend answered with a failure (e.g. an S3 error response): the farm's failure,
 * not the caller's, so 500 (logged, message not shown) and exit 1 whatever S3 answered.
 */
export class StorageError extends InternalError {
  constructor(
    message: string,
    /** HTTP status from an S3 endpoint, when there was one */
    public readonly s3Status?: number,
    /** S3 error code such as `AccessDenied` or `NoSuchBucket` */
    public readonly s3Code?: string,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}
