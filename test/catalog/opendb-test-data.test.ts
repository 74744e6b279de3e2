/** The switches CI uses to prove the suite needs no data outside the project. */
import { describe, expect, it, vi } from 'vitest';
import { optionalShared, sharedOpenDbDir } from '../helpers/opendb-data.js';

describe('optional OpenDB data', () => {
  it('OPENDB_SHARED_DIR=none hides it, saying so', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(sharedOpenDbDir({ OPENDB_SHARED_DIR: 'none' }).dir).toBeNull();
      const s = optionalShared('sample', { OPENDB_SHARED_DIR: 'none' });
      expect(s.path).toBeNull();
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^skipped \(sample\): OPENDB_SHARED_DIR=none/));
    } finally {
      warn.mockRestore();
    }
  });

  it('a folder without the data skips, naming the folder; OPENDB_REQUIRE_SHARED=1 makes it an error', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(optionalShared('opendb-renderable.tar.gz', { OPENDB_SHARED_DIR: '/nonexistent/opendb' }).path).toBeNull();
      expect(warn.mock.calls[0]?.[0]).toContain('/nonexistent/opendb');
    } finally {
      warn.mockRestore();
    }
    expect(() =>
      optionalShared('sample', { OPENDB_SHARED_DIR: '/nonexistent/opendb', OPENDB_REQUIRE_SHARED: '1' }),
    ).toThrow(/OPENDB_REQUIRE_SHARED=1 but optional OpenDB data not found in \/nonexistent\/opendb/);
  });
});
