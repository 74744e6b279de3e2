/** `top` shows whether each worker draws on a GPU: gpu (ANGLE over Vulkan), egl+gpu (a vendor's EGL), or the CPU backend. */
import { describe, expect, it } from 'vitest';
import { farmSnapshot } from '../../src/top/farm-snapshot.js';
import { useTestDb } from '../helpers/db.js';

describe('render-farm top backends', () => {
  const t = useTestDb();

  it('marks a GPU behind EGL and keeps the CPU and Vulkan ones as they are', async () => {
    const workers = {
      'w-cpu': { backend: 'egl', gpu: { found: false, detail: 'none found (CPU: egl llvmpipe)' } },
      'w-vk': { backend: 'gpu', gpu: { found: true, detail: 'gpu: nvidia_icd.json' } },
      'w-egl': { backend: 'egl', gpu: { found: true, detail: 'egl: ANGLE (AMD, ...)' } },
      'w-old': { backend: 'swiftshader' },
    };
    let pid = 1;
    for (const [id, backend] of Object.entries(workers)) {
      await t.db.db
        .insertInto('workers')
        .values({ id, hostname: `host-${id}`, pid: pid++, concurrency: 1, backend: JSON.stringify(backend) })
        .execute();
    }
    const snap = await farmSnapshot(t.db);
    expect(Object.fromEntries(snap.workers.map((w) => [w.id, w.backend]))).toEqual({
      'w-cpu': 'egl',
      'w-vk': 'gpu',
      'w-egl': 'egl+gpu',
      'w-old': 'swiftshader',
    });
  });
});
