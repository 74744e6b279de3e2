import { describe, expect, it } from 'vitest';
import {
  buildFfmpegArgs,
  buildFfmpegOptions,
  buildSegmentArgs,
  SEGMENT_THREADS,
} from '../../src/encode/ffmpeg-args.js';

describe('buildFfmpegArgs', () => {
  it('encodes piped JPEG frames to H.264 yuv420p MP4 with faststart', () => {
    const args = buildFfmpegArgs({ input: 'jpeg', fps: 30, width: 1280, height: 720, output: '/tmp/x.mp4' });
    expect(args.slice(args.indexOf('-f'), args.indexOf('-i') + 2)).toEqual([
      '-f',
      'image2pipe',
      '-framerate',
      '30',
      '-c:v',
      'mjpeg',
      '-i',
      'pipe:0',
    ]);
    const after = args.slice(args.indexOf('pipe:0'));
    expect(after).toEqual(expect.arrayContaining(['libx264', 'yuv420p', '+faststart']));
    expect(after[after.indexOf('-pix_fmt') + 1]).toBe('yuv420p');
    expect(after[after.indexOf('-movflags') + 1]).toBe('+faststart');
    expect(after[after.indexOf('-r') + 1]).toBe('30');
    expect(after).toContain('scale=1280:720:flags=bicubic,format=yuv420p');
    expect(args.at(-1)).toBe('/tmp/x.mp4');
  });

  it('takes PNG frames and tuning', () => {
    const { inputOptions, outputOptions } = buildFfmpegOptions({
      input: 'png',
      fps: 24,
      width: 256,
      height: 256,
      output: 'o',
      crf: 23,
      preset: 'medium',
    });
    expect(inputOptions).toEqual(['-f', 'image2pipe', '-framerate', '24', '-c:v', 'png']);
    expect(outputOptions.slice(0, 6)).toEqual(['-c:v', 'libx264', '-preset', 'medium', '-crf', '23']);
  });

  it('copies an H.264 elementary stream without re-encoding', () => {
    const args = buildFfmpegArgs({ input: 'h264', fps: 30, width: 256, height: 256, output: 'o.mp4' });
    expect(args).toEqual([
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'h264',
      '-r',
      '30',
      '-i',
      'pipe:0',
      '-c:v',
      'copy',
      '-r',
      '30',
      '-an',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      'o.mp4',
    ]);
  });

  it('encodes one segment to raw H.264 on stdout with settings that do not depend on the machine', () => {
    const args = buildSegmentArgs({ input: 'jpeg', fps: 30, width: 256, height: 256 });
    expect(args.slice(args.indexOf('-i'), args.indexOf('-i') + 2)).toEqual(['-i', 'pipe:0']);
    const after = args.slice(args.indexOf('pipe:0'));
    expect(after[after.indexOf('-c:v') + 1]).toBe('libx264');
    // fixed threads (x264's bytes depend on them), no B-frames (a raw stream has no timestamps)
    expect(after[after.indexOf('-threads') + 1]).toBe(String(SEGMENT_THREADS));
    expect(after[after.indexOf('-bf') + 1]).toBe('0');
    expect(args[args.indexOf('-filter_threads') + 1]).toBe('1');
    expect(args.slice(-3)).toEqual(['-f', 'h264', 'pipe:1']);
  });
});
