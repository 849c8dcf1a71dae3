// Loads the website in headless Chromium (puppeteer-core driving the system
// browser): the front page, a click on its first navigation link, and a
// post. Collects console errors, page errors, failed requests and HTTP
// errors, saves screenshots to the output directory and prints one JSON
// line with what it saw.
const puppeteer = require('puppeteer-core');

const [, , siteURL, postURL, outDir, chromium] = process.argv;

(async () => {
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const problems = [];
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console error: ' + m.text()); });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('requestfailed', (r) => problems.push('request failed: ' + r.url()));
  page.on('response', (r) => { if (r.status() >= 400) problems.push('HTTP ' + r.status() + ': ' + r.url()); });
  const out = {};

  let res = await page.goto(siteURL + '/', { waitUntil: 'load' });
  out.front = {
    status: res.status(),
    title: await page.title(),
    siteTitle: await page.$eval('.wp-block-site-title', (e) => e.textContent.trim()),
  };
  await page.screenshot({ path: outDir + '/front-page.png', fullPage: true });

  out.nav = await page.$$eval('nav.wp-block-navigation a', (as) => as.map((a) => a.href));
  if (out.nav.length > 0) {
    const [navRes] = await Promise.all([
      page.waitForNavigation({ waitUntil: 'load' }),
      page.click('nav.wp-block-navigation a'),
    ]);
    out.clicked = { status: navRes.status(), url: page.url(), h1: await page.$eval('h1', (e) => e.textContent.trim()) };
  }

  res = await page.goto(postURL, { waitUntil: 'load' });
  out.post = { status: res.status(), h1: await page.$eval('h1', (e) => e.textContent.trim()) };
  await page.screenshot({ path: outDir + '/post.png', fullPage: true });

  out.problems = problems;
  console.log(JSON.stringify(out));
  await browser.close();
})().catch((err) => {
  console.error(err && (err.stack || err));
  process.exit(1);
});
