// @ts-check
// The baseline of the bench's "ndjson paging" row: the least a program can do to print a listing as
// ndjson, with node's own http (one keep-alive connection), JSON.parse and JSON.stringify, one write
// per page. No error handling, no escaping, no lossless numbers: a floor, not a rival.
//
//   BOOKING_BASE_URL=… BOOKING_API_KEY=… node scripts/bench/bare-loop.mjs
import http from 'node:http';

const base = process.env.BOOKING_BASE_URL;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const headers = { authorization: `Bearer ${process.env.BOOKING_API_KEY}`, accept: 'application/json' };

/**
 * @param {string} url
 * @returns {Promise<any>}
 */
function get(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        /** @type {Buffer[]} */
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      })
      .on('error', reject);
  });
}

/**
 * @param {string} text
 * @returns {Promise<void>}
 */
const write = (text) => new Promise((resolve) => (process.stdout.write(text) ? resolve() : process.stdout.once('drain', resolve)));

let cursor;
do {
  const body = await get(`${base}/api/v1/bookings?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
  let text = '';
  for (const item of body.data) text += `${JSON.stringify(item)}\n`;
  await write(text);
  cursor = body.meta.next_cursor;
} while (cursor);
agent.destroy();
