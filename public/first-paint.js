// The last Atendimento screen this device showed, painted before the app's JavaScript runs, when the app
// opens offline: the attendant reads the list at once. src/app/lib/first-paint.ts saves it when the app is
// hidden and takes it away on the first real render of the list. A still picture: inert, hidden from
// assistive technology, gone after 10 s whatever happens.
(() => {
  try {
    if (navigator.onLine) return;
    const saved = JSON.parse(localStorage.getItem('painel-first-paint') || 'null');
    if (!saved || !localStorage.getItem('token') || saved.path !== location.pathname) return;
    const style = document.createElement('style');
    style.id = 'first-paint-style';
    style.textContent = saved.css;
    document.head.appendChild(style);
    if (saved.scheme) document.documentElement.setAttribute('data-mantine-color-scheme', saved.scheme);
    const picture = document.createElement('div');
    picture.id = 'first-paint';
    picture.inert = true;
    picture.setAttribute('aria-hidden', 'true');
    picture.style.cssText = 'position:fixed;inset:0;overflow:hidden;z-index:150;background:#fff';
    picture.innerHTML = saved.html;
    document.body.prepend(picture);
    setTimeout(() => {
      picture.remove();
      style.remove();
    }, 10_000);
  } catch {
    // A picture that cannot be read is not shown: the app starts as usual.
  }
})();
