"""Browser mode (``-a render=1``, ``NEWSSTEM_RENDER``): pages fetched through headless
Chromium with scrapy-playwright, for sites that build their articles by script.

Only the requests of pages go through the browser (start pages, followed links, the
entries of sitemaps and feeds): robots.txt, sitemaps and feeds are fetched as without it,
and robots.txt, URL rules, depth, the URL store and politeness apply unchanged, since
they act on requests before any download handler sees them. In the browser a page is
opened up to its ``DOMContentLoaded``, its ``load`` waited for at most
``NEWSSTEM_RENDER_WAIT`` seconds (an image or a script that never arrives does not lose
the page: :func:`measure_page`), then :data:`COLLECT_BOXES` runs in it: it waits until
the document stops changing and the page's script has its data (no DOM mutation and
no ``fetch`` or ``XMLHttpRequest`` of the page in flight for ``NEWSSTEM_RENDER_QUIET``
ms, for the rest of ``NEWSSTEM_RENDER_WAIT``: a page that never settles is read as it is
then), and measures the boxes of the page's large elements for the visual scoring of
:mod:`newsstem.visual`. The rendered DOM is the response body: the pipelines, the
archive (which marks the page ``rendered``) and the URL store see it like any page.

scrapy-playwright manages the pages: it closes each one after its response or its error,
at most ``NEWSSTEM_RENDER_PAGES`` at once in one browser context; newsstem closes one still
open ``DOWNLOAD_TIMEOUT`` after it was read (its script holds the browser:
:func:`_close_if_held`).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import os
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy.settings import default_settings

from newsstem import defaults
from newsstem.rules import is_crawlable_scheme

if TYPE_CHECKING:
    from scrapy.http import Request, Response
    from scrapy.settings import BaseSettings

__all__ = [
    "COLLECT_BOXES",
    "RenderError",
    "browser_path",
    "configure",
    "for_one_page",
    "load_states",
    "mark_loaded",
    "measure_page",
    "page_meta",
    "rendered_boxes",
    "unfinished_requests",
    "wants_render",
    "watch_requests",
]

logger = logging.getLogger(__name__)

HANDLER = "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler"
# Where a browser is looked for when NEWSSTEM_RENDER_BROWSER names none: the system's
# Chromium (Debian's ``chromium`` package and others), then Playwright's own download.
SYSTEM_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
LAUNCH_ARGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)
# Resource types the browser does not load: they change neither the text nor, with
# width and height set by the page's CSS, the layout much; they cost time.
SKIPPED_RESOURCES = frozenset({"media", "font"})

# Runs in every page before its own scripts (added by :func:`watch_requests`): counts the
# page's fetch and XMLHttpRequest calls still in flight, and when the last one ended. A
# fetch ends when its body has arrived (read from a clone), an XMLHttpRequest at its
# ``loadend`` (after the page's own ``load`` handlers). A quiet DOM alone is no sign that
# a script is done: the request that brings the article's text may still be on its way
# (a loaded machine or a slow server makes it outlast NEWSSTEM_RENDER_QUIET).
WATCH_REQUESTS = """
(() => {
  if (window.__newsstemRequests) return;
  const state = {pending: 0, lastEnd: 0};
  Object.defineProperty(window, '__newsstemRequests', {value: state, enumerable: false});
  const begin = () => {
    state.pending += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      state.pending -= 1;
      state.lastEnd = performance.now();
    };
  };
  const fetch = window.fetch;
  if (typeof fetch === 'function') {
    window.fetch = function (...args) {
      const end = begin();
      let promise;
      try { promise = fetch.apply(this, args); } catch (error) { end(); throw error; }
      Promise.resolve(promise).then((response) => {
        try { response.clone().arrayBuffer().then(end, end); } catch (error) { end(); }
      }, end);
      return promise;
    };
  }
  if (typeof XMLHttpRequest === 'function') {
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (...args) {
      const end = begin();
      this.addEventListener('loadend', end);
      try { return send.apply(this, args); } catch (error) { end(); throw error; }
    };
  }
})();
"""

# Runs in the page: waits until the DOM is quiet and none of the page's requests is in
# flight (WATCH_REQUESTS), both for ``quiet`` ms, or until the wait is over; then returns
# the page's size, the requests still in flight then (``pending``) and the boxes of its
# elements large enough to be a main content (5 % of the page's area), with their text.
# Paths name elements as tag#id.class for reports.
COLLECT_BOXES = """
async ({wait, quiet, minShare}) => {
  const requests = window.__newsstemRequests || {pending: 0, lastEnd: 0};
  await new Promise((resolve) => {
    let timer = null;
    let lastChange = performance.now();
    const finish = () => {
      observer.disconnect(); clearTimeout(timer); clearTimeout(limit); resolve();
    };
    const limit = setTimeout(finish, wait);
    const check = () => {
      if (requests.pending > 0) { timer = setTimeout(check, quiet); return; }
      const left = Math.max(lastChange, requests.lastEnd) + quiet - performance.now();
      if (left > 0) { timer = setTimeout(check, left); return; }
      finish();
    };
    const observer = new MutationObserver(() => { lastChange = performance.now(); });
    observer.observe(document.documentElement,
                     {childList: true, subtree: true, characterData: true});
    timer = setTimeout(check, quiet);
  });
  const root = document.documentElement;
  const width = root.scrollWidth, height = root.scrollHeight;
  const minArea = width * height * minShare;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className.trim() ?
      '.' + el.className.trim().split(/\\s+/).slice(0, 3).join('.') : '');
  const boxes = [];
  for (const el of document.body ? document.body.querySelectorAll('*') : []) {
    const r = el.getBoundingClientRect();
    if (r.width * r.height < minArea) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility !== 'visible') continue;
    if (style.opacity === '0') continue;
    if (r.right + scrollX <= 0 || r.bottom + scrollY <= 0) continue;
    const kids = el.children;
    let wrapper = false;
    if (kids.length === 1) {
      const c = kids[0].getBoundingClientRect();
      wrapper = Math.abs(c.x - r.x) < 4 && Math.abs(c.y - r.y) < 4 &&
        Math.abs(c.width - r.width) < 4 && Math.abs(c.height - r.height) < 4;
    }
    const text = (el.innerText || '').slice(0, 200000);
    let links = 0;
    for (const a of el.querySelectorAll('a')) links += (a.innerText || '').length;
    let path = [];
    for (let node = el; node && node !== document.body && path.length < 6;
         node = node.parentElement) path.unshift(name(node));
    boxes.push({
      tag: el.tagName.toLowerCase(), x: r.x + scrollX, y: r.y + scrollY, w: r.width, h: r.height,
      text, links,
      main: !!el.closest('main, [id*="main" i], [role="main"]'),
      other: !!el.closest('nav, aside, header, footer, menu, [role="navigation"], ' +
                          '[role="complementary"]'),
      wrapper, path: path.join(' > '),
    });
  }
  return {width, height, boxes, pending: requests.pending};
}
"""
# The browser script's result, in the response meta (scrapy-playwright's page methods).
PAGE_METHODS_META_KEY = "playwright_page_methods"


class RenderError(Exception):
    """Browser mode cannot start (no browser, scrapy-playwright missing, a browser that
    does not launch)."""


def wants_render(settings: BaseSettings, argument: object = None) -> bool:
    """Whether this crawl renders pages: ``-a render=1`` (``argument``), else
    ``NEWSSTEM_RENDER``; UsageError for a value that is no flag."""
    from newsstem.setting_values import parse_flag

    if argument is not None:
        return parse_flag("-a render", argument)
    return parse_flag("NEWSSTEM_RENDER", settings.get("NEWSSTEM_RENDER", defaults.NEWSSTEM_RENDER))


def browser_path(settings: BaseSettings | None = None) -> str:
    """The Chromium to launch: ``NEWSSTEM_RENDER_BROWSER``, else the system's, else
    Playwright's; :class:`RenderError` (saying how to install one) when there is none."""
    configured = (
        settings.get("NEWSSTEM_RENDER_BROWSER", defaults.NEWSSTEM_RENDER_BROWSER)
        if settings is not None else None
    )
    if configured:
        path = shutil.which(configured) or (configured if Path(configured).is_file() else None)
        if path is None or not os.access(path, os.X_OK):
            raise RenderError(f"NEWSSTEM_RENDER_BROWSER {configured!r} is not an executable")
        return path
    try:
        import scrapy_playwright  # noqa: F401
        from playwright.sync_api import sync_playwright  # noqa: F401
    except ImportError:
        raise RenderError(
            "browser mode needs scrapy-playwright: pip install scrapy-playwright"
        ) from None
    for name in SYSTEM_BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    bundled = _playwright_chromium()
    if bundled:
        return bundled
    raise RenderError(
        "no Chromium found for browser mode: install one (apt-get install chromium, or "
        "python -m playwright install chromium) or name it in NEWSSTEM_RENDER_BROWSER"
    )


def _playwright_chromium() -> str | None:
    """The Chromium ``playwright install chromium`` downloaded, if any."""
    configured = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    cache = Path(configured) if configured else Path.home() / ".cache" / "ms-playwright"
    for candidate in sorted(cache.glob("chromium-*/chrome-linux*/chrome"), reverse=True):
        if os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def configure(settings: BaseSettings, browser: str) -> None:
    """Settings of browser mode: scrapy-playwright's download handler for http(s), the
    browser, its concurrency and timeouts. Values the user set keep their priority."""
    priority = "cmdline"
    settings.set("NEWSSTEM_RENDER", True, priority=priority)
    handlers = dict(settings.getdict("DOWNLOAD_HANDLERS"))
    handlers.update({"http": HANDLER, "https": HANDLER})
    settings.set("DOWNLOAD_HANDLERS", handlers, priority=priority)
    settings.set("PLAYWRIGHT_BROWSER_TYPE", "chromium", priority="project")
    settings.set(
        "PLAYWRIGHT_LAUNCH_OPTIONS",
        {"executable_path": browser, "headless": True, "args": list(LAUNCH_ARGS)},
        priority="project",
    )
    pages = settings.getint("NEWSSTEM_RENDER_PAGES", defaults.NEWSSTEM_RENDER_PAGES)
    settings.set("PLAYWRIGHT_MAX_PAGES_PER_CONTEXT", pages, priority="project")
    settings.set("PLAYWRIGHT_MAX_CONTEXTS", 1, priority="project")
    timeout = settings.getfloat("DOWNLOAD_TIMEOUT", default_settings.DOWNLOAD_TIMEOUT)
    timeout_ms = int(timeout * 1000)
    settings.set("PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT", timeout_ms, priority="project")
    settings.set("PLAYWRIGHT_ABORT_REQUEST", _skipped_resource, priority="project")
    # scrapy-playwright logs a failed page with its traceback; newsstem's DownloadErrors
    # middleware logs it as one line with the reason
    logging.getLogger("scrapy-playwright").setLevel(logging.ERROR)


def _skipped_resource(request: Any) -> bool:
    return request.resource_type in SKIPPED_RESOURCES


def page_meta(settings: BaseSettings) -> dict[str, Any]:
    """Request meta that sends a page through the browser and measures it there."""
    from scrapy_playwright.page import PageMethod

    wait = settings.getfloat("NEWSSTEM_RENDER_WAIT", defaults.NEWSSTEM_RENDER_WAIT)
    quiet = settings.getint("NEWSSTEM_RENDER_QUIET", defaults.NEWSSTEM_RENDER_QUIET)
    timeout = settings.getfloat("DOWNLOAD_TIMEOUT", default_settings.DOWNLOAD_TIMEOUT)
    arguments = {"wait": int(wait * 1000), "quiet": quiet, "minShare": 0.05,
                 "timeout": int(timeout * 1000)}
    # a module function: request meta goes through pickle (disk and Redis queues)
    measure = PageMethod(measure_page, arguments)
    # the page is opened up to DOMContentLoaded: measure_page waits for its load event
    # itself, at most NEWSSTEM_RENDER_WAIT (scrapy-playwright's goto would wait for it up
    # to DOWNLOAD_TIMEOUT, and fail the page when an image or a script never arrives)
    return {"playwright": True, PAGE_METHODS_META_KEY: [measure],
            "playwright_page_goto_kwargs": {"wait_until": "domcontentloaded"},
            "playwright_page_init_callback": "newsstem.render.watch_requests"}


async def measure_page(page: Any, arguments: dict[str, Any]) -> dict[str, Any]:
    """The page method of browser mode: waits for the page's ``load`` event, at most
    ``arguments["wait"]`` ms, then runs :data:`COLLECT_BOXES` for the rest of that wait
    (at least one ``quiet`` time).

    A page whose ``load`` never comes (an image or a script that never arrives: a stuck
    tracker or ad server) is read as it is then, like a page that never settles: it is
    marked loaded for scrapy-playwright (:func:`mark_loaded`), which waits for the load
    state after every page method up to the navigation timeout (DOWNLOAD_TIMEOUT) and
    would otherwise fail the page, its article lost.

    Its script has ``arguments["timeout"]`` ms (DOWNLOAD_TIMEOUT) to give the browser
    back: Playwright's ``page.evaluate`` has no timeout, and a page busy in a loop that
    never ends (``while (true) {}`` once its DOM is ready) held it, its slot among
    NEWSSTEM_RENDER_PAGES and the end of the crawl forever. Such a page fails as a
    timeout (scrapy-playwright then closes it); one whose loop starts once it is read is
    closed by :func:`_close_if_held`."""
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    wait = int(arguments["wait"])
    started = time.monotonic()
    loaded = True
    try:
        await page.wait_for_load_state(timeout=max(wait, 1))
    except PlaywrightTimeout:  # the load event did not come within the wait
        loaded = False
    left = wait - int((time.monotonic() - started) * 1000)
    left = max(left, int(arguments["quiet"]))
    # (a request queued in a JOBDIR or Redis by an older newsstem has no "timeout")
    given = arguments.get("timeout") or default_settings.DOWNLOAD_TIMEOUT * 1000
    limit = max(int(given), left + 1000)
    try:
        result = await asyncio.wait_for(
            page.evaluate(COLLECT_BOXES, {**arguments, "wait": left}), limit / 1000)
    except asyncio.TimeoutError:
        raise PlaywrightTimeout(held_message(limit / 1000)) from None
    if not loaded:
        mark_loaded(page)
    _close_if_held(page, result, limit / 1000)
    return result


def held_message(seconds: float) -> str:
    """Why a page whose script never gave the browser back failed."""
    return f"the page's script held the browser for {seconds:g} s (DOWNLOAD_TIMEOUT)"


# The watches of :func:`_close_if_held` running (asyncio keeps only a weak reference to a
# task)
_WATCHES: set[asyncio.Task] = set()


def _close_if_held(page: Any, result: dict[str, Any], seconds: float) -> None:
    """Close ``page`` if it is still open ``seconds`` after it was read, ``result["held"]``
    then saying so (:func:`held_for`).

    After :func:`measure_page`, scrapy-playwright takes the page's HTML with
    ``page.content()``, which has no timeout and runs on the page's own thread: a loop
    the page's script starts between the two calls held it, the page's slot among
    NEWSSTEM_RENDER_PAGES and the end of the crawl forever. Closed, the page fails
    (``page.content()`` raises) and scrapy-playwright goes on. A page closed in time (any
    page not held) ends the watch."""
    from playwright.async_api import Error as PlaywrightError

    async def watch() -> None:
        await asyncio.sleep(seconds)
        if not page.is_closed():
            result["held"] = seconds
            with contextlib.suppress(PlaywrightError):  # the browser gone meanwhile
                await page.close()

    task = asyncio.ensure_future(watch())
    _WATCHES.add(task)
    task.add_done_callback(_WATCHES.discard)
    page.once("close", lambda _page: task.cancel())


def held_for(request: Request) -> float | None:
    """Seconds after which a rendered page, already read, was closed because its script
    held the browser (:func:`_close_if_held`); None for any other request."""
    boxes = rendered_boxes(request)
    return boxes.get("held") if boxes else None


# Whether the WARNING of mark_loaded was said (once per process: it is about Playwright,
# not about a page).
_said_no_load_states = False


def load_states(page: Any) -> set[str] | None:
    """The set of load states Playwright's Python client keeps for ``page``'s main frame
    (``Frame._impl_obj._load_states``: the set ``wait_for_load_state`` checks before it
    waits for an event), or None when this Playwright keeps none there.

    Private, and the only way: no public API makes ``wait_for_load_state`` return for a
    page whose ``load`` never fires, and scrapy-playwright (0.0.48) calls it after every
    page method. Tried on Chromium (docs/render.md): ``window.stop()`` and CDP
    ``Page.stopLoading`` end the page's loading (``readyState`` complete) but fire no
    ``load``, so Chromium reports none to Playwright; CDP offline emulation does not end
    requests in flight; removing the stuck elements does not release ``load``. The public
    way round is ``playwright_include_page`` with the body read by newsstem after the
    wait, which leaves every page's closing (errors included) to newsstem: not done."""
    frame = getattr(page, "main_frame", None)
    states = getattr(getattr(frame, "_impl_obj", None), "_load_states", None)
    return states if isinstance(states, set) else None


def mark_loaded(page: Any) -> bool:
    """Mark ``page`` loaded for Playwright (:func:`load_states`); False, and one WARNING
    line per process, when this Playwright keeps its load states elsewhere: such a page
    then fails at DOWNLOAD_TIMEOUT (the behaviour before stop 44) instead of being read
    after NEWSSTEM_RENDER_WAIT. tests/test_browser_mode.py checks the layout on a real
    page, so an upgrade of Playwright that changes it fails there, not silently."""
    global _said_no_load_states

    states = load_states(page)
    if states is not None:
        states.add("load")
        return True
    if not _said_no_load_states:
        _said_no_load_states = True
        logger.warning(
            "newsstem: Playwright %s keeps no Frame._load_states: a rendered page whose "
            "load never comes (an image or a script that never arrives) fails at "
            "DOWNLOAD_TIMEOUT instead of being read after NEWSSTEM_RENDER_WAIT "
            "(see docs/render.md)", _playwright_version())
    return False


def _playwright_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("playwright")
    except PackageNotFoundError:
        return "(version unknown)"


def for_one_page(meta: dict[str, Any]) -> dict[str, Any]:
    """:func:`page_meta` for one request: its own copies of the page methods.
    scrapy-playwright writes each method's result on its object: shared by the requests,
    a page rendered beside others would be read with the boxes (and the requests in
    flight) of whichever page was measured last."""
    methods = meta.get(PAGE_METHODS_META_KEY)
    if not methods:
        return meta
    return {**meta, PAGE_METHODS_META_KEY: [copy.copy(method) for method in methods]}


async def watch_requests(page: Any, request: Any) -> None:
    """scrapy-playwright's page init callback: :data:`WATCH_REQUESTS` runs in the page
    before its scripts, so :data:`COLLECT_BOXES` knows which requests are in flight.

    scrapy-playwright opens a new page for a request whose page was closed under it (up
    to PLAYWRIGHT_TARGET_CLOSED_MAX_RETRIES times, 3): for a page :func:`_close_if_held`
    closed, each one was held and closed in its turn, four DOWNLOAD_TIMEOUTs for one page.
    Such a page's navigation is aborted: it fails at once, and the site is not asked for
    the page again (it was, by a second page failed after its DOMContentLoaded)."""
    if held_for(request) is not None:
        # routes run newest first: before scrapy-playwright's own
        await page.route("**", lambda route: route.abort())
        return
    await page.add_init_script(WATCH_REQUESTS)


def rendered_boxes(response: Response | Request) -> dict[str, Any] | None:
    """What :data:`COLLECT_BOXES` returned for a rendered response, or its request
    (None otherwise)."""
    methods = response.meta.get(PAGE_METHODS_META_KEY) or ()
    for method in methods:
        result = getattr(method, "result", None)
        if isinstance(result, dict) and "boxes" in result:
            return result
    return None


def unfinished_requests(response: Response) -> int:
    """How many of the page's fetch/XMLHttpRequest calls were still in flight when a
    rendered page was read (its ``NEWSSTEM_RENDER_WAIT`` was over); 0 otherwise."""
    boxes = rendered_boxes(response)
    return int(boxes.get("pending") or 0) if boxes else 0


# -- screenshots of learned layouts (scrapy learn --report) --------------------------

# Runs in the page: outlines, for each (role, first line, last line) of a block, the
# smallest element holding both lines, in the role's colour.
OUTLINE_BLOCKS = """
({outlines, colours}) => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
  const norm = (s) => s.replace(/\\s+/g, ' ').trim();
  let found = 0;
  for (const [role, first, last] of outlines) {
    const start = norm(first).slice(0, 20), end = norm(last).slice(0, 40);
    const node = nodes.find((n) => norm(n.textContent).startsWith(start));
    if (!node) continue;
    let el = node.parentElement;
    while (el.parentElement && el.parentElement !== document.body &&
           (getComputedStyle(el).display === 'inline' || !norm(el.innerText || '').includes(end)))
      el = el.parentElement;
    el.style.outline = '4px solid ' + colours[role];
    el.style.outlineOffset = '-2px';
    found += 1;
  }
  return found;
}
"""
SCREENSHOT_WIDTH = 1280
SCREENSHOT_MAX_HEIGHT = 6000
# Seconds for taking a screenshot once the page is rendered (a tall page, a loaded machine)
SCREENSHOT_TIMEOUT = 30.0


class Screenshots:
    """Screenshots of pages (their HTML as archived) with blocks outlined, taken by one
    headless Chromium; a context manager. Used by ``scrapy learn --report``.

    A page is shot with scripts off: its archived HTML (what the layout was learned from),
    served at its own URL, and stylesheets; the browser leaves it for no other page
    (:class:`_StoredPage`: a ``<meta http-equiv="refresh">`` took it away). Run again, a
    page's script would redo a rendered archive's DOM, and one that never returns
    (``while (true) {}``) held ``page.evaluate``, which has no timeout, and the report
    with it. A page is shot once its ``load`` came, or when ``wait`` seconds are over
    (``NEWSSTEM_RENDER_WAIT``): an image or a stylesheet that
    never arrives (a stuck tracker, a site gone since the crawl) is then stopped, and what
    has rendered is shot. Fonts and media are not loaded, as in browser mode (a screenshot
    waits for the page's fonts: one asked for after ``load`` that never arrives would cost
    the picture).
    The screenshot itself has :data:`SCREENSHOT_TIMEOUT` seconds."""

    def __init__(
        self, browser: str, colours: dict[str, str],
        wait: float = defaults.NEWSSTEM_RENDER_WAIT,
    ) -> None:
        self.browser_path = browser
        self.colours = colours
        self.wait_ms = max(1, int(wait * 1000))

    def __enter__(self) -> Screenshots:
        """Launch the browser; :class:`RenderError` (Playwright stopped) when it cannot be."""
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright

        self._playwright = sync_playwright().start()
        try:
            self._browser = self._playwright.chromium.launch(
                executable_path=self.browser_path, headless=True, args=list(LAUNCH_ARGS)
            )
        except PlaywrightError as error:
            self._playwright.stop()
            raise RenderError(
                f"cannot launch the browser {self.browser_path} "
                f"({str(error).splitlines()[0]}); name a working Chromium in "
                "NEWSSTEM_RENDER_BROWSER"
            ) from None
        return self

    def __exit__(self, *exc: object) -> None:
        self._browser.close()
        self._playwright.stop()

    def __call__(self, html: str, url: str | None, outlines: list[tuple[str, str, str]],
                 path: Path) -> bool:
        """Render ``html`` at ``url`` (its relative links resolve against it), outline the
        blocks, save a PNG at ``path``; False (and one log line) when it cannot."""
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        page = self._browser.new_page(viewport={"width": SCREENSHOT_WIDTH, "height": 900},
                                      java_script_enabled=False)
        try:
            page.set_default_timeout(self.wait_ms)
            page.route("**/*", _StoredPage(page, html))
            try:
                page.goto(url if url and is_crawlable_scheme(url) else NO_URL, wait_until="load")
            except PlaywrightTimeout:  # resources that never come: shoot what is there
                page.evaluate("() => window.stop()")
            page.evaluate(OUTLINE_BLOCKS, {"outlines": outlines, "colours": self.colours})
            height = min(SCREENSHOT_MAX_HEIGHT, page.evaluate(
                "() => document.documentElement.scrollHeight") or 900)
            page.screenshot(path=str(path), clip={"x": 0, "y": 0, "width": SCREENSHOT_WIDTH,
                                                  "height": max(1, height)}, full_page=True,
                            timeout=SCREENSHOT_TIMEOUT * 1000)
            return True
        except PlaywrightError as error:
            logger.warning("newsstem: no screenshot of %s: %s", url, str(error).splitlines()[0])
            return False
        finally:
            page.close()


# Where a page archived without an http(s) URL is served from (.invalid never resolves:
# its relative links fail at once)
NO_URL = "http://page.invalid/"


class _StoredPage:
    """Route handler of :class:`Screenshots`: the page's first navigation is answered with
    its stored HTML (served at its own URL, so its relative links resolve as they did),
    every later navigation of the page is aborted (``net::ERR_ABORTED``, which leaves the
    page shown as it is, no error page): a ``<meta http-equiv="refresh">`` (obeyed with
    scripts off, the one in ``<noscript>`` too) no longer takes the browser to another
    page, an error page or a blank one before the picture. Frames of the page load as
    before; :data:`SKIPPED_RESOURCES` are not loaded."""

    def __init__(self, page: Any, html: str) -> None:
        self.page = page
        self.html: str | None = html

    def __call__(self, route: Any) -> None:
        request = route.request
        if request.is_navigation_request() and self._main_frame(request):
            if self.html is None:
                route.abort("aborted")
            else:
                html, self.html = self.html, None
                route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)
        elif _skipped_resource(request):
            route.abort()
        else:
            route.fallback()

    def _main_frame(self, request: Any) -> bool:
        from playwright.sync_api import Error as PlaywrightError

        try:
            return request.frame == self.page.main_frame
        except PlaywrightError:  # a frame not created yet: a new frame, not the page
            return False
