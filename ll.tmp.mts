import sharp from 'sharp';
const W = 16380, H = 16380, bufs: Buffer[] = [];
const sheet = Buffer.alloc(W * H * 3);
let y = 0;
for (const i of [0,1,2,3]) {
  const { data, info } = await sharp(`/tmp/hisheet/rows${i}.png`, { limitInputPixels: false }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  data.copy(sheet, y * W * 3); y += info.height;
}
for (const opts of JSON.parse(process.argv[2])) {
  const t = Date.now();
  try { const i = await sharp(sheet, { raw: { width: W, height: H, channels: 3 } }).webp(opts).toFile('/tmp/hisheet/o.webp'); console.log(JSON.stringify(opts), 'ok', (i.size/1e6).toFixed(1), 'MB', Date.now() - t, 'ms'); }
  catch (e) { console.log(JSON.stringify(opts), 'FAIL', (e as Error).message.split('\n')[0], Date.now() - t, 'ms'); }
}
