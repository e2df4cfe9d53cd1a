// A fixed amount of JavaScript work, as srag's own mixes it (strings, maps, JSON, regular
// expressions, short-lived objects), printed as the CPU milliseconds it took in this process.
// `npm run bench` runs it beside each measured `srag ingest`: it does the same work every time, so
// its figure tells how fast the machine was in that window. Shared machines swing by a third or
// more within an hour, and a change in srag's figures between two results files means little
// without it.
const started = process.cpuUsage();
let checksum = 0;
for (let round = 0; round < 80; round += 1) {
  const counts = new Map();
  const words = [];
  for (let index = 0; index < 20_000; index += 1) {
    const word = `w${(index * 7919) % 5003}`;
    counts.set(word, (counts.get(word) ?? 0) + 1);
    if (index % 10 === 0) words.push({ word, at: index, upper: word.toUpperCase() });
  }
  const text = JSON.stringify(words);
  const parsed = JSON.parse(text);
  checksum += parsed.length + counts.size + (text.match(/"w\d+1"/g)?.length ?? 0);
}
const used = process.cpuUsage(started);
process.stdout.write(`${JSON.stringify({ cpuMilliseconds: (used.user + used.system) / 1000, checksum })}\n`);
