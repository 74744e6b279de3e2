/** An in-process S3 (s3rver) for the S3 store's tests: real HTTP, no account. */
import path from 'node:path';
import S3rver from 's3rver';

/** s3rver on 127.0.0.1 and a free port, its files under dir/s3rver, with bucket made; stop it with close(). */
export async function startS3rver(dir: string, bucket: string): Promise<{ server: S3rver; port: number }> {
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: path.join(dir, 's3rver'),
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return { server, port };
}
