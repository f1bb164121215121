import { chromium } from 'playwright';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--disable-gpu'] });
const p = await b.newPage(); p.on('console', m => console.log('C', m.text())); p.on('pageerror', e => console.log('E', e.message));
await p.goto('http://127.0.0.1:8777/page.html');
await p.waitForFunction(() => document.title === 'DONE', null, { timeout: 30000 });
console.log(JSON.stringify(JSON.parse(await p.textContent('body')), null, 0).replace(/},/g, '},\n'));
await b.close();
