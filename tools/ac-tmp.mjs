import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
const [url, secs='5', pid] = process.argv.slice(2);
const cpu = () => { if (!pid) return 0; const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 1e4; };
const c0 = cpu();
const r = await autocannon({ url, duration: Number(secs), connections: 32, headers: { 'user-agent': 'Mozilla/5.0 Chrome/140', accept: 'text/html' } });
console.log(url, Math.round(r.requests.average), 'req/s', pid ? Math.round((cpu() - c0) / r.requests.total) + ' µs/req' : '', JSON.stringify(Object.fromEntries(Object.entries(r).filter(([k]) => /^\dxx$/.test(k) && r[k] > 0))));
