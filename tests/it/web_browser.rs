//! The web board in a real browser: headless Chromium driven over WebDriver (ChromeDriver, from
//! Debian's `chromium` and `chromium-driver`; `.ci/run` installs them). The page loads, a move
//! is played by clicking a house or a square and the engine replies, the analysis lines update
//! while the search runs, a record is imported and stepped through with its values, and the
//! page pauses when hidden and notices a server that went away and came back.
//! Ignored by default (it needs the browser); CI runs it. With `PERFECTPLAY_SCREENSHOTS=DIR`
//! it also saves the screenshots docs/web.md shows.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::web::WebServer;
use serde_json::{json, Value};

/// A ChromeDriver process and one headless Chromium session of it.
struct Browser {
    driver: Child,
    base: String,
    session: String,
    agent: ureq::Agent,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Browser {
    /// Starts ChromeDriver (`CHROMEDRIVER`, default /usr/bin/chromedriver) and a headless
    /// Chromium (`CHROME_BIN`, default /usr/bin/chromium) of `width` x `height` pixels.
    fn start(width: u32, height: u32) -> Browser {
        Browser::launch(width, height, None)
    }

    /// A headless Chromium whose page is exactly `width` x `height` CSS pixels (ChromeDriver's
    /// device emulation), with a touch screen when `touch` (a phone: taps and touch drags).
    fn emulated(width: u32, height: u32, touch: bool) -> Browser {
        let metrics = json!({"deviceMetrics": {"width": width, "height": height,
            "pixelRatio": 1.0, "touch": touch, "mobile": touch}});
        Browser::launch(width, height, Some(metrics))
    }

    fn launch(width: u32, height: u32, emulation: Option<Value>) -> Browser {
        let port = free_port();
        let driver_bin =
            std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
        let driver = Command::new(&driver_bin)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {driver_bin}: {e} (install chromium-driver)"));
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while agent.get(format!("{base}/status")).call().is_err() {
            assert!(Instant::now() < deadline, "ChromeDriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let chrome = std::env::var("CHROME_BIN").unwrap_or_else(|_| "/usr/bin/chromium".into());
        let mut browser = Browser {
            driver,
            base,
            session: String::new(),
            agent,
        };
        let mut options = json!({"binary": chrome, "args": [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            format!("--window-size={width},{height}")]});
        if let Some(emulation) = emulation {
            options["mobileEmulation"] = emulation;
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options}}});
        let value = browser.call("POST", "/session", Some(caps));
        browser.session = value["sessionId"].as_str().expect("a session").to_string();
        browser
    }

    /// One WebDriver command: its `value`.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.try_call(method, path, body)
            .unwrap_or_else(|value| panic!("{method} {path}: {value}"))
    }

    /// One WebDriver command: its `value`, or the error's `value` when it fails.
    fn try_call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, Value> {
        let url = format!("{}{path}", self.base);
        let mut res = match method {
            "GET" => self.agent.get(&url).call(),
            "DELETE" => self.agent.delete(&url).call(),
            _ => self
                .agent
                .post(&url)
                .header("Content-Type", "application/json")
                .send(body.unwrap_or(json!({})).to_string()),
        }
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let text = res.body_mut().read_to_string().unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        if res.status().is_success() {
            Ok(value["value"].clone())
        } else {
            Err(value["value"].clone())
        }
    }

    fn cmd(&self, method: &str, what: &str, body: Option<Value>) -> Value {
        self.call(method, &format!("/session/{}{what}", self.session), body)
    }

    fn go(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    /// Runs `script` in the page (a function body: `return ...`).
    fn js(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Clicks the element `css` selects, as a person would (WebDriver's element click); found
    /// again when the page redrew it between the finding and the click (the board is redrawn
    /// as the analysis marks its best move).
    fn click(&self, css: &str) {
        for _ in 0..20 {
            let id = self.element(css);
            let path = format!("/session/{}/element/{id}/click", self.session);
            match self.try_call("POST", &path, None) {
                Ok(_) => return,
                Err(e) if e["error"] == "stale element reference" => {
                    std::thread::sleep(Duration::from_millis(50))
                }
                Err(e) => panic!("clicking {css}: {e}"),
            }
        }
        panic!("clicking {css}: the element was redrawn twenty times");
    }

    /// The WebDriver id of the element `css` selects.
    fn element(&self, css: &str) -> String {
        let found = self.cmd(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string()
    }

    /// Drags the element `from` selects onto the one `to` selects with a `pointer`, `"mouse"`
    /// or `"touch"` (a finger): pressed, moved in steps, released (WebDriver's pointer actions).
    fn pointer_drag(&self, pointer: &str, from: &str, to: &str) {
        let origin =
            |css: &str| json!({ "element-6066-11e4-a52e-4f735466cecf": self.element(css) });
        self.cmd(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "pointer", "id": pointer,
                "parameters": {"pointerType": pointer},
                "actions": [
                    {"type": "pointerMove", "duration": 0, "origin": origin(from), "x": 0, "y": 0},
                    {"type": "pointerDown", "button": 0},
                    {"type": "pointerMove", "duration": 300, "origin": origin(to), "x": 0, "y": 0},
                    {"type": "pointerUp", "button": 0}]}]})),
        );
        self.cmd("DELETE", "/actions", None);
    }

    /// Swipes a finger from the middle of the element `css` selects `dy` pixels down (up when
    /// negative), as a person scrolling the page does; a tap when `dy` is 0.
    fn touch_swipe(&self, css: &str, dy: i64) {
        let origin = json!({ "element-6066-11e4-a52e-4f735466cecf": self.element(css) });
        self.cmd(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "pointer", "id": "finger",
                "parameters": {"pointerType": "touch"},
                "actions": [
                    {"type": "pointerMove", "duration": 0, "origin": origin, "x": 0, "y": 0},
                    {"type": "pointerDown", "button": 0},
                    {"type": "pointerMove", "duration": if dy == 0 { 0 } else { 300 },
                     "origin": "pointer", "x": 0, "y": dy},
                    {"type": "pointerUp", "button": 0}]}]})),
        );
        self.cmd("DELETE", "/actions", None);
    }

    /// Taps the element `css` selects with a finger.
    fn tap(&self, css: &str) {
        self.touch_swipe(css, 0);
    }

    /// Sends `keys` to the element `css` selects (focusing it, as WebDriver's element send keys
    /// does).
    fn send_keys(&self, css: &str, keys: &str) {
        let id = self.element(css);
        self.cmd(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": keys })),
        );
    }

    /// Presses and releases `key` where the focus is (WebDriver's key actions).
    fn press(&self, key: &str) {
        self.cmd(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "key", "id": "keyboard",
                "actions": [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]})),
        );
    }

    /// Moves the mouse onto the element `css` selects (WebDriver's pointer actions).
    fn hover(&self, css: &str) {
        let id = self.element(css);
        let origin = json!({ "element-6066-11e4-a52e-4f735466cecf": id });
        self.cmd(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "pointer", "id": "mouse",
                "parameters": {"pointerType": "mouse"},
                "actions": [{"type": "pointerMove", "duration": 0, "origin": origin,
                             "x": 0, "y": 0}]}]})),
        );
    }

    /// Waits (up to 60 s) until `script` returns something true; returns it.
    fn wait_for(&self, what: &str, script: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let v = self.js(script);
            let truthy = match &v {
                Value::Null | Value::Bool(false) => false,
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return v;
            }
            if Instant::now() > deadline {
                let status = self.js("return document.getElementById('status').innerText + ' | ' + document.getElementById('error').innerText");
                panic!("waiting for {what}: {status}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The numbers `script` returns (an array of them).
    fn numbers(&self, script: &str) -> Vec<f64> {
        let v = self.js(script);
        v.as_array()
            .unwrap_or_else(|| panic!("{script}: {v}"))
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    }

    fn texts(&self, css: &str) -> Vec<String> {
        let v = self.js(&format!(
            "return [...document.querySelectorAll('{css}')].map(e => e.textContent)"
        ));
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    }

    /// Saves a screenshot to `$PERFECTPLAY_SCREENSHOTS/name` when that is set.
    fn screenshot(&self, name: &str) {
        let Ok(dir) = std::env::var("PERFECTPLAY_SCREENSHOTS") else {
            return;
        };
        let png = self.cmd("GET", "/screenshot", None);
        let bytes = base64_decode(png.as_str().unwrap());
        std::fs::write(PathBuf::from(dir).join(name), bytes).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self
                .agent
                .delete(format!("{}/session/{}", self.base, self.session))
                .call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64 (WebDriver's screenshots).
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    digits
        .chunks(4)
        .flat_map(|c| {
            let n = c
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &d)| n | (u32::from(d) << (18 - 6 * i)));
            let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            bytes.into_iter().take(c.len() - 1)
        })
        .collect()
}

/// A server (`perfectplay serve`, no tables) and `browser` on its page at `query`
/// (`variant=abapa&mode=play`), once `ready` (a script, as for [`Browser::wait_for`], `what`
/// naming it) is true: the set-up of most tests.
fn open(browser: Browser, query: &str, what: &str, ready: &str) -> (WebServer, Browser) {
    let server = WebServer::start(&[]);
    browser.go(&format!("{}?{query}", server.url));
    browser.wait_for(what, ready);
    (server, browser)
}

#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn play_a_move_by_clicking_and_the_engine_replies() {
    // Oware: South's house C, highlighted as legal, clicked.
    let (server, browser) = open(
        Browser::start(1280, 860),
        "variant=abapa&mode=play&theme=light",
        "the legal houses",
        "return document.querySelectorAll('[data-square].legal').length == 6",
    );
    let labels = browser.js(
        "return [...document.querySelectorAll('[data-square]')].map(e => e.getAttribute('aria-label'))",
    );
    assert_eq!(labels.as_array().unwrap().len(), 12);
    assert_eq!(labels[2], "C: 4 seeds");
    browser.click(r#"[data-square="C"]"#);
    browser.wait_for(
        "the engine's reply",
        "return document.querySelectorAll('#move-list button').length == 2",
    );
    let moves = browser.texts("#move-list button");
    assert_eq!(moves[0], "C");
    assert!(("a"..="f").contains(&moves[1].as_str()), "{moves:?}");
    browser.wait_for(
        "your move again",
        "return document.getElementById('status').innerText.includes('your move')",
    );
    // The house the engine sowed from is empty, and C's neighbours got C's seeds.
    let (_, state) = server.json(&format!("api/state?moves=C+{}", moves[1]));
    let shown = browser.js(&format!(
        "return document.querySelector('[data-square=\"{}\"]').getAttribute('aria-label')",
        moves[1]
    ));
    assert_eq!(shown, format!("{}: 0 seeds", moves[1]));
    assert_eq!(state["board"]["houses"][&moves[1]], 0);
    browser.screenshot("oware-play.png");

    // Dobutsu: the chick from b2 to b3 (it takes Gote's chick), by two clicks.
    browser.go(&format!(
        "{}?variant=dobutsu&mode=play&theme=light",
        server.url
    ));
    browser.wait_for(
        "the pieces",
        "return document.querySelectorAll('[data-square].movable').length > 0",
    );
    browser.click(r#"[data-square="b2"]"#);
    browser.wait_for(
        "the chick's target",
        "return document.querySelector('[data-square=\"b3\"]').classList.contains('target')",
    );
    browser.click(r#"[data-square="b3"]"#);
    browser.wait_for(
        "the engine's reply",
        "return document.querySelectorAll('#move-list button').length == 2",
    );
    let moves = browser.texts("#move-list button");
    assert_eq!(moves[0], "b2b3");
    let hand = browser.js(
        "return [...document.querySelectorAll('[data-hand]')].map(e => e.getAttribute('aria-label'))",
    );
    assert!(
        hand.as_array()
            .unwrap()
            .iter()
            .any(|l| l == "Sente's hand: 1 Chick"),
        "{hand}"
    );
    browser.screenshot("dobutsu-play.png");

    // A variant the page does not offer: said, and the default game shown.
    browser.go(&format!("{}?variant=chess", server.url));
    browser.wait_for(
        "the default board",
        "return document.querySelectorAll('[data-square]').length == 12",
    );
    let error = browser.js("return document.getElementById('error').innerText");
    assert_eq!(error, "'chess' is not a variant: showing abapa");
    assert_eq!(
        browser.js("return document.getElementById('variant').value"),
        "abapa"
    );
}

#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn study_shows_lines_updating_and_a_record_steps_through_with_values() {
    let (server, browser) = open(
        Browser::start(1280, 860),
        "variant=dobutsu&mode=study&theme=light&moves=b2b3",
        "three lines",
        "return document.querySelectorAll('#lines li').length == 3",
    );
    // The lines and the clock change while the search runs: sampled every 100 ms for 2 s.
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..20 {
        let stats = browser.js("return document.getElementById('engine-stats').innerText");
        seen.insert(stats.as_str().unwrap().to_string());
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        seen.len() >= 8,
        "the stats changed {} times in 2 s: {seen:?}",
        seen.len()
    );
    let depth_of = |s: &str| -> u32 {
        s.split_whitespace()
            .nth(1)
            .and_then(|d| d.split('/').next())
            .and_then(|d| d.parse().ok())
            .unwrap_or(0)
    };
    let depths: Vec<u32> = seen.iter().map(|s| depth_of(s)).collect();
    assert!(depths.iter().max() > depths.iter().min(), "{seen:?}");
    // The values pane lists every legal move; the one that loses the Lion at once says so.
    let rows = browser.texts("#values tbody tr");
    assert_eq!(rows.len(), 5, "{rows:?}");
    assert!(
        rows.iter().any(|r| r == "a4a3+#1Sente wins in 2 plies"),
        "{rows:?}"
    );
    browser.screenshot("dobutsu-study.png");

    // An Oware record, from the runner's format, imported and stepped through.
    let (_, state) =
        server.json("api/state?variant=awari&position=2-0-1-0-3-0-0-1-0-2-1-0-20-18-S");
    assert_eq!(state["to_move"], "South");
    let record = "[Variant \"Oware Awari\"]\n[Event \"?\"]\n[Site \"?\"]\n[Date \"?\"]\n\
                  [Round \"?\"]\n[South \"Ann\"]\n[North \"Bob\"]\n[Result \"*\"]\n\
                  [FEN \"2-0-1-0-3-0-0-1-0-2-1-0-20-18-S\"]\n\n1. A b 2. C *\n";
    // The import replaces the game shown, once the person says so.
    browser.js(&format!(
        "window.confirm = () => true; document.getElementById('record-box').open = true; \
         document.getElementById('record-text').value = {}; return true",
        serde_json::to_string(record).unwrap()
    ));
    browser.click("#import");
    browser.wait_for(
        "the imported moves",
        "return document.querySelectorAll('#move-list button').length == 3",
    );
    assert_eq!(
        browser.js("return document.getElementById('variant').value"),
        "awari"
    );
    // A gave up four seeds of margin against E: the review marks it.
    browser.wait_for(
        "the review's mark",
        "return document.querySelector('#move-list button').classList.contains('cost-margin')",
    );
    browser.click("#nav-forward");
    browser.wait_for(
        "the first move shown",
        "return document.querySelector('#move-list button.current')?.textContent == 'A'",
    );
    browser.click("#nav-back");
    // Back at the start, South's best move: E, worth six seeds (the stores' two and four to
    // come).
    browser.wait_for(
        "the start's values",
        "return document.querySelector('#values tbody tr')?.textContent == 'E+6South wins by 6 seeds'",
    );
    let rows = browser.texts("#values tbody tr");
    assert_eq!(rows.len(), 3, "{rows:?}");
    browser.click("#nav-last");
    browser.wait_for(
        "the last move shown",
        "return document.querySelector('#move-list button.current')?.textContent == 'C'",
    );
    // The whole board in the picture (clicks lower down scrolled the page).
    browser.js("window.scrollTo(0, 0); return true");
    browser.screenshot("oware-study.png");
}

/// The page at a phone's width: the board and the panels in one column, nothing wider than the
/// screen.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn the_page_fits_a_phone() {
    let (_server, browser) = open(
        Browser::emulated(390, 844, true),
        "variant=dobutsu&mode=play&theme=dark",
        "the pieces",
        "return document.querySelectorAll('[data-square]').length == 12",
    );
    let wide = browser.js("return document.documentElement.scrollWidth <= window.innerWidth");
    assert_eq!(wide, true);
    let board = browser.js("return document.getElementById('board').getBoundingClientRect().width");
    assert!(board.as_f64().unwrap() > 250.0, "{board}");
    browser.screenshot("dobutsu-phone.png");
}

/// The page never scrolls sideways: on a desktop of 1280x800 and of 1024x768 (where the
/// vertical scrollbar takes its width from the page) and on a phone (390x844, touch), in both
/// games, light and dark, in play and in study, with moves played, every box opened and the
/// engine's lines shown whole, nothing is wider than the window's content.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn the_page_never_scrolls_sideways() {
    let server = WebServer::start(&[]);
    for (width, height, phone) in [(1280, 800, false), (1024, 768, false), (390, 844, true)] {
        let browser = if phone {
            Browser::emulated(width, height, true)
        } else {
            Browser::start(width, height)
        };
        for (variant, moves) in [("abapa", "C%20f%20D"), ("dobutsu", "b2b3%20b4b3")] {
            for mode in ["play", "study"] {
                for theme in ["light", "dark"] {
                    let place = format!("{variant} {mode} {theme} at {width}x{height}");
                    browser.go(&format!(
                        "{}?variant={variant}&mode={mode}&theme={theme}&moves={moves}",
                        server.url
                    ));
                    browser.wait_for(
                        &format!("the board, {place}"),
                        "return document.querySelectorAll('[data-square]').length > 0",
                    );
                    if mode == "study" {
                        browser.wait_for(
                            &format!("the engine's lines, {place}"),
                            "return document.querySelectorAll('#lines .more').length > 0",
                        );
                        browser.js(
                            "document.querySelectorAll('#lines .more').forEach(b => b.click())",
                        );
                    }
                    browser.js("document.querySelectorAll('details').forEach(d => d.open = true)");
                    let widths = browser.numbers(
                        "const d = document.documentElement; return [d.scrollWidth, d.clientWidth]",
                    );
                    let (scroll, client) = (widths[0], widths[1]);
                    assert!(scroll <= client, "{place}: {scroll} px wide in {client} px");
                }
            }
        }
    }
}

/// A position with one legal move: the engine answers it without a search or a line, and the
/// analysis says so (it said "searching · 0.0 s · done" over no line).
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn one_legal_move_is_said_without_a_search() {
    let (_server, browser) = open(
        Browser::start(1280, 800),
        "variant=awari&mode=study&theme=light&position=0-0-0-0-0-1-3-2-2-2-0-0-20-18-S",
        "the houses",
        "return document.querySelectorAll('[data-square]').length == 12",
    );
    let said = browser.wait_for(
        "the search's answer",
        "const t = document.getElementById('engine-stats').textContent; \
         return t.includes('done') || t.includes('no search') ? t : ''",
    );
    assert_eq!(said, "one legal move, F: no search needed");
    assert_eq!(browser.texts("#lines li").len(), 0);
}

/// A game just imported, exported or downloaded is replaced without asking (the record holds
/// it: importing the record exported asked "Discard this game?"); one given a side line since
/// still asks.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn a_game_kept_in_a_record_is_replaced_without_asking() {
    let (_server, browser) = open(
        Browser::start(1280, 800),
        "variant=dobutsu&mode=study&theme=light",
        "the pieces",
        "return document.querySelectorAll('[data-square]').length == 12",
    );
    let alert = |browser: &Browser| {
        let path = format!("/session/{}/alert/text", browser.session);
        browser.try_call("GET", &path, None).ok()
    };
    let game_of = |browser: &Browser| moves_of(browser, "#move-list [data-move]");
    browser.js("document.getElementById('record-box').open = true");
    browser.js("document.getElementById('record-text').value = \
         '[Variant \"dobutsu\"]\\n\\n1. b2b3 b4b3 2. c1c2 *'");
    browser.click("#import");
    browser.wait_for(
        "the imported game",
        "return document.querySelectorAll('#move-list [data-move]').length == 3",
    );
    browser.click("#export");
    browser.wait_for(
        "the exported record",
        "return document.getElementById('record-text').value.includes('Termination') \
         || document.getElementById('record-text').value.includes('Event \"perfectplay')",
    );
    browser.click("#import");
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        alert(&browser),
        None,
        "importing the record just exported asked"
    );
    browser.wait_for(
        "the game imported again",
        "return document.querySelectorAll('#move-list [data-move]').length == 3",
    );
    assert_eq!(game_of(&browser), ["b2b3", "b4b3", "c1c2"]);
    // A side line from the first move: the record exported does not hold it.
    browser.click(r#"#move-list [data-ply="1"]"#);
    browser.click(r#"[data-square="a4"]"#);
    browser.wait_for(
        "the giraffe's targets",
        "return document.querySelectorAll('.target').length > 0",
    );
    let target = browser.js("return document.querySelector('.target').dataset.square");
    browser.click(&format!(r#"[data-square="{}"]"#, target.as_str().unwrap()));
    browser.wait_for(
        "the side line",
        "return document.querySelectorAll('#move-list [data-move]').length == 4",
    );
    browser.click("#import");
    let asked = alert(&browser).expect("a game with a side line asks before it is replaced");
    assert!(
        asked.as_str().unwrap().starts_with("Discard this game"),
        "{asked}"
    );
    browser.cmd("POST", "/alert/dismiss", None);
    assert_eq!(game_of(&browser).len(), 4);
}

/// A record's variations, nested, become side lines of the tree at the moves they replace; a
/// click goes into one; Export writes the whole tree back in parentheses, and importing that
/// record gives the same tree.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn a_records_variations_become_side_lines_and_export_writes_them() {
    let (_server, browser) = open(
        Browser::start(1280, 800),
        "variant=dobutsu&mode=study&theme=light",
        "the pieces",
        "return document.querySelectorAll('[data-square]').length == 12",
    );
    let tree = [
        "b2b3", "c1c2", "b3b2", "a4a3", "b1a2", "a1b2", "b4b3", "a4a3", "c1c2",
    ];
    let moves = "[...document.querySelectorAll('#move-list [data-ply][data-move]')]";
    browser.js("document.getElementById('record-box').open = true");
    browser.js(
        "document.getElementById('record-text').value = '[Variant \"dobutsu\"]\\n\\n\
         1. b2b3! {takes the chick} (1. c1c2 $2 b3b2 (1... a4a3 {the giraffe} 2. b1a2) \
         2. a1b2) 1... b4b3 (1... a4a3) 2. c1c2 *'",
    );
    browser.click("#import");
    browser.wait_for(
        "the imported tree",
        &format!("return {moves}.length == {}", tree.len()),
    );
    assert_eq!(moves_of(&browser, "#move-list [data-ply][data-move]"), tree);
    let side = browser.js(&format!(
        "return {moves}.map(e => e.classList.contains('side') ? e.dataset.ply : '')"
    ));
    assert_eq!(side, json!(["", "1", "2", "2", "3", "3", "", "2", ""]));
    // Into the side line nested in the first move's: the position after c1c2 a4a3 b1a2.
    browser.click(r#"#move-list [data-ply="3"][data-move="b1a2"]"#);
    browser.wait_for(
        "the nested side line shown",
        "return document.querySelector('#move-list .current')?.dataset.move == 'b1a2' \
         && document.querySelector('[data-square=\"a2\"]')?.getAttribute('aria-label')?.includes('Lion')",
    );
    browser.click("#export");
    browser.wait_for(
        "the exported record",
        "return document.getElementById('record-text').value.includes('Event \"perfectplay')",
    );
    let text = browser.js("return document.getElementById('record-text').value");
    let text = text
        .as_str()
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.contains(
            "1. b2b3 (1. c1c2 b3b2 (1... a4a3 2. b1a2) 2. a1b2) 1... b4b3 (1... a4a3) 2. c1c2 *"
        ),
        "{text}"
    );
    // Imported again (the record holds the game: no question), the same tree.
    browser.js("document.getElementById('record-text').value += ' '; return true");
    browser.click("#import");
    browser.wait_for(
        "the tree imported again",
        "return document.querySelector('#move-list .current')?.dataset.ply == undefined",
    );
    browser.wait_for(
        "the tree imported again",
        &format!("return {moves}.length == {}", tree.len()),
    );
    assert_eq!(moves_of(&browser, "#move-list [data-ply][data-move]"), tree);
}

/// The page and the server's life: a hidden page's analysis stops and starts again when it is
/// shown; when the server goes away the page says so within seconds, and when a server is back
/// on the same address the page hides the note and analyses again.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn the_page_pauses_when_hidden_and_notices_the_server_gone_and_back() {
    let server = WebServer::start(&[]);
    let port = server.addr().rsplit(':').next().unwrap().to_string();
    let browser = Browser::start(1280, 860);
    browser.go(&format!(
        "{}?variant=dobutsu&mode=study&theme=light&moves=b2b3",
        server.url
    ));
    browser.wait_for(
        "three lines",
        "return document.querySelectorAll('#lines li').length == 3",
    );
    let searches = |server: &WebServer| server.json("api/info").1["searches"].as_u64().unwrap();
    assert_eq!(searches(&server), 1);
    // Hidden (as a browser tab in the background): the search stops.
    browser.js(
        "Object.defineProperty(document, 'hidden', {configurable: true, get: () => true}); \
         document.dispatchEvent(new Event('visibilitychange')); return true",
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    while searches(&server) != 0 {
        assert!(
            Instant::now() < deadline,
            "the hidden page's search runs on"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    browser.js(
        "Object.defineProperty(document, 'hidden', {configurable: true, get: () => false}); \
         document.dispatchEvent(new Event('visibilitychange')); return true",
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    while searches(&server) != 1 {
        assert!(
            Instant::now() < deadline,
            "the shown page's search did not start again"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // The server goes away.
    drop(server);
    let gone = Instant::now();
    browser.wait_for(
        "the note that the server is gone",
        "return !document.getElementById('connection').hidden",
    );
    assert!(
        gone.elapsed() < Duration::from_secs(10),
        "{:?}",
        gone.elapsed()
    );
    let note = browser.js("return document.getElementById('connection').innerText");
    assert_eq!(note, "The server is not answering: retrying…");
    // A server on the same port: the page comes back to it and analyses again.
    let server = WebServer::start(&["--port", &port]);
    browser.wait_for(
        "the note hidden",
        "return document.getElementById('connection').hidden",
    );
    browser.js("document.getElementById('lines').replaceChildren(); return true");
    browser.wait_for(
        "three lines again",
        "return document.querySelectorAll('#lines li').length == 3",
    );
    assert_eq!(searches(&server), 1);
}

/// Moves as a query's value: blanks as `%20`, a promotion's `+` as `%2B`.
fn query(moves: &[String]) -> String {
    moves
        .iter()
        .map(|m| m.replace('+', "%2B"))
        .collect::<Vec<_>>()
        .join("%20")
}

/// A move number and the move after it keep to one row of the move list, whatever its width
/// (a row used to end at "3." with "a1b2" on the next).
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn a_move_number_stays_with_its_move() {
    let server = WebServer::start(&[]);
    // 24 plies of the engine against itself, 3,000 nodes a move (deterministic).
    let mut moves: Vec<String> = Vec::new();
    while moves.len() < 24 {
        let path = format!(
            "api/bestmove?variant=abapa&moves={}&nodes=3000",
            query(&moves)
        );
        let (_, best) = server.json(&path);
        moves.push(best["move"].as_str().unwrap().to_string());
    }
    let browser = Browser::start(1280, 800);
    browser.go(&format!(
        "{}?variant=abapa&mode=study&theme=light&moves={}",
        server.url,
        query(&moves)
    ));
    browser.wait_for(
        "the move list",
        "return document.querySelectorAll('#move-list button').length == 24",
    );
    // Each width from 60 to 400 px: the numbers whose move starts another row.
    let split = browser.js(
        "const list = document.getElementById('move-list'); const split = []; \
         for (let w = 60; w <= 400; w += 2) { list.style.width = w + 'px'; \
           for (const num of list.querySelectorAll('.num')) { \
             const a = num.getBoundingClientRect(), b = num.nextElementSibling.getBoundingClientRect(); \
             if (b.top >= a.bottom) split.push(w + ': ' + num.textContent); } } \
         list.style.width = ''; return split",
    );
    assert_eq!(split, json!([]));
}

/// Stepping through a game moves the move list, never the page (the board stays in view),
/// and Download saves the whole game, without an Export first, naming the level the engine
/// played at (not the one selected since).
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn stepping_never_scrolls_the_page_and_download_saves_the_whole_game() {
    let server = WebServer::start(&[]);
    // A Dobutsu game of the engine against itself, 3,000 nodes a move (deterministic), to its
    // end (20 plies with the linear evaluation; a new evaluation plays another game).
    let mut moves: Vec<String> = Vec::new();
    loop {
        let path = |what: &str| format!("api/{what}?variant=dobutsu&moves={}", query(&moves));
        if server.json(&path("state")).1["end"] != Value::Null {
            break;
        }
        let (_, best) = server.json(&format!("{}&nodes=3000", path("bestmove")));
        moves.push(best["move"].as_str().unwrap().to_string());
    }
    assert!(moves.len() >= 12, "{moves:?}");
    let plies = moves.len();
    let browser = Browser::start(1280, 800);
    browser.go(&format!(
        "{}?variant=dobutsu&mode=study&theme=light&moves={}",
        server.url,
        query(&moves)
    ));
    browser.wait_for(
        "the move list",
        &format!("return document.querySelectorAll('#move-list button').length == {plies}"),
    );
    browser.click("#nav-first");
    for ply in 1..=plies {
        browser.click("#nav-forward");
        browser.wait_for(
            "the next move shown",
            &format!(
                "return document.querySelector('#move-list button.current')?.dataset.ply == '{ply}'"
            ),
        );
        let scrolled = browser.js(
            "return [window.scrollY, document.getElementById('board').getBoundingClientRect().top]",
        );
        assert_eq!(scrolled[0].as_f64(), Some(0.0), "ply {ply}: {scrolled}");
        assert!(
            scrolled[1].as_f64().unwrap() >= 0.0,
            "ply {ply}: {scrolled}"
        );
    }

    // Oware: C, the engine's reply, then Download with no Export before it.
    browser.go(&format!(
        "{}?variant=abapa&mode=play&theme=light",
        server.url
    ));
    browser.wait_for(
        "the legal houses",
        "return document.querySelectorAll('[data-square].legal').length == 6",
    );
    browser.click(r#"[data-square="C"]"#);
    browser.wait_for(
        "the engine's reply",
        "return document.querySelectorAll('#move-list button').length == 2",
    );
    let played = browser.texts("#move-list button");
    // The level changed after the engine played: the record names the one it played at.
    browser.js("document.getElementById('level').value = '3'; return true");
    browser.js("document.getElementById('record-box').open = true; \
         document.getElementById('download').dataset.href = ''; return true");
    browser.click("#download");
    browser.wait_for(
        "the download's file",
        "return document.getElementById('download').dataset.href",
    );
    let record = browser.js("const x = new XMLHttpRequest(); \
         x.open('GET', document.getElementById('download').dataset.href, false); x.send(); \
         return x.responseText");
    let record = record.as_str().unwrap();
    assert!(
        record.contains(&format!("1. {} {}", played[0], played[1])),
        "{record}"
    );
    assert!(record.contains("perfectplay level 6"), "{record}");
    assert!(!record.contains("<html"), "{record}");
}

/// A click on a house that cannot be sown says why: the feeding rule, an empty house, the other
/// side's house; the theme chosen is remembered across a reload.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn an_illegal_house_says_why_and_the_theme_is_remembered() {
    // North has no seeds: South must feed, and only E (3 seeds: F, a, b) does.
    let (server, browser) = open(
        Browser::start(1280, 860),
        "variant=abapa&mode=play&position=1-0-0-0-3-0-0-0-0-0-0-0-22-22-S",
        "the one legal house",
        "return document.querySelectorAll('[data-square].legal').length == 1",
    );
    let error = |house: &str| {
        browser.click(&format!(r#"[data-square="{house}"]"#));
        browser
            .js("return document.getElementById('error').innerText")
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        error("A"),
        "North has no seeds, and South must feed: sowing A does not reach North's row (the \
         feeding rule). Moves that feed: E."
    );
    assert_eq!(error("B"), "B is empty: South sows from E.");
    assert_eq!(error("a"), "a is North's house: South sows from E.");
    // The theme: switched, then the page loaded again without a theme in its address.
    let theme = "return document.documentElement.dataset.theme || ''";
    let before = browser.js(theme);
    browser.click("#theme");
    let after = browser.js(theme);
    assert_ne!(before, after);
    browser.go(&format!("{}?variant=abapa", server.url));
    browser.wait_for(
        "the board",
        "return document.querySelectorAll('[data-square]').length == 12",
    );
    assert_eq!(browser.js(theme), after);
}

/// An address with a promotion's `+` typed raw shows the promotion; one with a move the rules
/// refuse shows the game up to it and says why, never a blank board.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn an_address_with_a_raw_promotion_or_a_bad_move_shows_a_game() {
    let (server, browser) = open(
        Browser::start(1280, 860),
        "variant=dobutsu&mode=study&position=1le/C2/3/1L1[]%20w%20-%20-%200%201&moves=a3a4+",
        "the promotion played",
        "return document.querySelectorAll('#move-list button').length == 1",
    );
    assert_eq!(browser.texts("#move-list button"), ["a3a4+"]);
    assert_eq!(
        browser.js("return document.getElementById('error').innerText"),
        ""
    );
    browser.go(&format!(
        "{}?variant=dobutsu&mode=study&moves=b2b3+zzzz+b4b3",
        server.url
    ));
    browser.wait_for(
        "the game up to the bad move",
        "return document.querySelectorAll('#move-list button').length == 1 \
         && document.querySelectorAll('[data-square]').length == 12",
    );
    let error = browser.js("return document.getElementById('error').innerText");
    let error = error.as_str().unwrap();
    assert!(
        error.contains("'zzzz'") && error.ends_with("showing the game up to move 1"),
        "{error}"
    );
}

/// The evaluation bar: the first player's share and a label from the first player's view (a
/// North-to-move position North loses by 2 seeds reads `+2`), on a light plate readable over
/// either colour, filled from the top when the board is flipped, and the result (the final
/// stores) at a game's end in play.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn the_evaluation_bar_reads_from_the_first_player_and_flips() {
    let fill = "return document.querySelector('.evalbar-fill').style.height";
    let (server, browser) = open(
        Browser::start(1280, 860),
        "variant=awari&mode=study&position=2-0-1-0-3-0-0-1-0-2-1-0-20-18-S&moves=A",
        "the table's value",
        "return document.querySelector('.evalbar-text').textContent == '+2'",
    );
    assert_eq!(browser.js(fill), "100%");
    // The tables decide the root: no depth or speed is shown for it.
    browser.wait_for(
        "the stats of a root the tables decide",
        "return document.getElementById('engine-stats').innerText == \
         \"exact: the tables' value, no search needed\"",
    );
    let plate = browser.js(
        "const s = getComputedStyle(document.querySelector('.evalbar-text')); \
         return [s.color, s.backgroundColor]",
    );
    assert_eq!(
        plate,
        json!(["rgb(17, 17, 17)", "rgba(244, 241, 234, 0.92)"])
    );
    browser.click("#flip");
    assert_eq!(
        browser.js(
            "return [document.getElementById('evalbar').classList.contains('flipped'), \
             getComputedStyle(document.querySelector('.evalbar-fill')).top]"
        ),
        json!([true, "0px"])
    );
    // South's 25th seed ends the game: in play the bar shows the result.
    browser.go(&format!(
        "{}?variant=abapa&mode=play&position=0-0-0-0-0-1-1-1-0-0-0-0-23-22-S&moves=F",
        server.url
    ));
    browser.wait_for(
        "the result on the bar",
        "return document.querySelector('.evalbar-text').textContent == '25-22'",
    );
    assert_eq!(browser.js(fill), "100%");
}

/// Markup tests and tools can rely on: each move of the game is an element with `data-ply`
/// and `data-move` (the protocol's notation, a promotion's `+` kept), and each move of an
/// engine line one with `data-pv-move`, in the line's order.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn moves_and_engine_lines_carry_their_moves_in_the_markup() {
    let (server, browser) = open(
        Browser::start(1280, 860),
        "variant=dobutsu&mode=study&theme=light&moves=b2b3%20b4b3%20a1b2",
        "two lines",
        "return document.querySelectorAll('#lines li').length >= 2",
    );
    let moves = browser.js(
        "return [...document.querySelectorAll('#move-list [data-move]')]\
         .map(e => [e.dataset.ply, e.dataset.move])",
    );
    assert_eq!(moves, json!([["1", "b2b3"], ["2", "b4b3"], ["3", "a1b2"]]));
    // Each line's moves, one element each, read the line's text, and its first move is legal.
    let lines = browser.js(
        "return [...document.querySelectorAll('#lines li')].map(li => \
         [li.querySelector('.pv').textContent, \
          [...li.querySelectorAll('[data-pv-move]')].map(e => e.dataset.pvMove)])",
    );
    let (_, state) = server.json("api/state?variant=dobutsu&moves=b2b3+b4b3+a1b2");
    let legal: Vec<&str> = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["move"].as_str().unwrap())
        .collect();
    for line in lines.as_array().unwrap() {
        let words: Vec<&str> = line[1]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert!(!words.is_empty(), "{lines}");
        assert_eq!(line[0].as_str().unwrap(), words.join(" "), "{lines}");
        assert!(legal.contains(&words[0]), "{words:?} against {legal:?}");
    }
    // A promotion keeps its `+`.
    browser.go(&format!(
        "{}?variant=dobutsu&mode=study&position=1le/C2/3/1L1[]%20w%20-%20-%200%201&moves=a3a4%2B",
        server.url
    ));
    browser.wait_for(
        "the promotion",
        "return document.querySelector('#move-list [data-ply=\"1\"]')?.dataset.move == 'a3a4+'",
    );
}

/// The moves of `css` in the page, as `data-move`s.
fn moves_of(browser: &Browser, css: &str) -> Vec<String> {
    let v = browser.js(&format!(
        "return [...document.querySelectorAll('{css}')].map(e => e.dataset.move)"
    ));
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// The game as a tree, as lichess keeps it: a move tried in an earlier position adds a side
/// line and keeps the game (its later moves and the review's marks); a side line is promoted
/// and deleted; a reload keeps the game and its lines (kept in the browser), and the address
/// holds the line shown, so that a link shares it; switching game or a new game asks first.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn side_lines_keep_the_game_and_a_reload_keeps_them() {
    let (server, browser) = open(
        Browser::start(1280, 860),
        "variant=awari&theme=light",
        "the board",
        "return document.querySelectorAll('[data-square]').length == 12",
    );
    let record = "[Variant \"Oware Awari\"]\n[South \"Ann\"]\n[North \"Bob\"]\n[Result \"*\"]\n\
                  [FEN \"2-0-1-0-3-0-0-1-0-2-1-0-20-18-S\"]\n\n1. A b 2. C *\n";
    browser.js(&format!(
        "document.getElementById('record-box').open = true; \
         document.getElementById('record-text').value = {}; return true",
        serde_json::to_string(record).unwrap()
    ));
    browser.click("#import");
    browser.wait_for(
        "the review's mark on A",
        "return document.querySelector('#move-list [data-move=\"A\"]')?.classList.contains('cost-margin')",
    );
    // At the start, E instead of A: a side line; the game's three moves and A's mark stay.
    browser.click(r#"[data-square="E"]"#);
    browser.wait_for(
        "E shown as a side line",
        "return document.querySelector('#move-list .variation button.current')?.dataset.move == 'E'",
    );
    assert_eq!(
        moves_of(&browser, "#move-list > .pair > button"),
        ["A", "b", "C"]
    );
    assert_eq!(moves_of(&browser, "#move-list .variation button"), ["E"]);
    assert_eq!(
        browser.js("return document.querySelector('#move-list [data-move=\"A\"]').className"),
        "cost-margin"
    );
    // The address holds the line shown.
    let search = browser.js("return decodeURIComponent(location.search)");
    assert!(
        search.as_str().unwrap().contains("moves=E")
            && search.as_str().unwrap().contains("variant=awari"),
        "{search}"
    );
    // Promoted, E is the main line and the game a side line.
    browser.click("#promote");
    browser.wait_for(
        "E on the main line",
        "return document.querySelector('#move-list > .pair > button')?.dataset.move == 'E'",
    );
    assert_eq!(
        moves_of(&browser, "#move-list .variation button"),
        ["A", "b", "C"]
    );
    // A reload with no game in the address: the game kept in the browser, both lines, at E.
    browser.go(&server.url);
    browser.wait_for(
        "the kept game",
        "return document.querySelectorAll('#move-list button').length == 4",
    );
    assert_eq!(moves_of(&browser, "#move-list > .pair > button"), ["E"]);
    assert_eq!(
        moves_of(&browser, "#move-list .variation button"),
        ["A", "b", "C"]
    );
    assert_eq!(moves_of(&browser, "#move-list button.current"), ["E"]);
    assert_eq!(
        browser.js("return document.getElementById('variant').value"),
        "awari"
    );
    // The address shared: a browser that keeps nothing shows the same line and position.
    let link = browser.js("return location.href");
    browser.js("localStorage.clear(); return true");
    browser.go(link.as_str().unwrap());
    browser.wait_for(
        "the shared line",
        "return document.querySelector('#move-list button.current')?.dataset.move == 'E'",
    );
    assert_eq!(moves_of(&browser, "#move-list button"), ["E"]);
    let houses = browser
        .js("return document.querySelector('[data-square=\"E\"]').getAttribute('aria-label')");
    assert_eq!(houses, "E: 0 seeds");
    // Deleted from the side line's first move, the game is back as it was.
    browser.js("localStorage.clear(); return true");
    browser.go(&format!(
        "{}?variant=awari&mode=study&position=2-0-1-0-3-0-0-1-0-2-1-0-20-18-S&moves=A+b+C",
        server.url
    ));
    browser.wait_for(
        "the game",
        "return document.querySelectorAll('#move-list button').length == 3",
    );
    browser.click("#nav-first");
    browser.click(r#"[data-square="E"]"#);
    browser.wait_for(
        "E as a side line",
        "return document.querySelector('#move-list .variation button.current')?.dataset.move == 'E'",
    );
    browser.click("#delete-line");
    browser.wait_for(
        "the side line gone",
        "return document.querySelectorAll('#move-list button').length == 3",
    );
    assert_eq!(
        moves_of(&browser, "#move-list > .pair > button"),
        ["A", "b", "C"]
    );
    // Switching game asks first: refused, the game stays; a new game asked for, accepted.
    browser.js(
        "window.asked = 0; window.confirm = () => { window.asked += 1; return false; }; \
         const s = document.getElementById('variant'); s.value = 'dobutsu'; \
         s.dispatchEvent(new Event('change')); return true",
    );
    assert_eq!(browser.js("return window.asked"), 1);
    assert_eq!(
        browser.js("return document.getElementById('variant').value"),
        "awari"
    );
    assert_eq!(moves_of(&browser, "#move-list button").len(), 3);
    browser.js("window.confirm = () => { window.asked += 1; return true; }; return true");
    browser.click("#new-game");
    browser.wait_for(
        "the new game",
        "return document.querySelectorAll('#move-list button').length == 0",
    );
    assert_eq!(browser.js("return window.asked"), 2);
}

/// The `aria-label`s of a Dobutsu board's squares as the page writes them for `state`'s board
/// (`b1: Sente's Lion`, `a2: empty`), in the page's order.
fn dobutsu_labels(state: &Value) -> Vec<String> {
    let name = |k: &str| match k {
        "L" => "Lion",
        "G" => "Giraffe",
        "E" => "Elephant",
        "C" => "Chick",
        _ => "Hen",
    };
    let mut labels = Vec::new();
    for file in ["a", "b", "c"] {
        for rank in 1..=4 {
            let sq = format!("{file}{rank}");
            let piece = &state["board"]["squares"][&sq];
            labels.push(match piece["kind"].as_str() {
                Some(k) => format!("{sq}: {}'s {}", piece["owner"].as_str().unwrap(), name(k)),
                None => format!("{sq}: empty"),
            });
        }
    }
    labels
}

/// An engine line's moves: a hover on one shows on the board the position after the line up
/// to it (nothing can be played on it), the position shown comes back when the pointer leaves
/// the lines, and a click plays the line to that move.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn engine_lines_are_previewed_and_played_by_their_moves() {
    // A short analysis (depth 6), so that the lines stay as they are once it is done.
    let (server, browser) = open(
        Browser::start(1280, 860),
        "variant=dobutsu&mode=study&theme=light&moves=b2b3",
        "the board",
        "return document.querySelectorAll('[data-square]').length == 12",
    );
    browser.js("const s = document.getElementById('analysis-limit'); \
         s.add(new Option('depth 6', 'depth=6')); s.value = 'depth=6'; \
         s.dispatchEvent(new Event('change')); return true");
    browser.wait_for(
        "the analysis done",
        "return document.getElementById('engine-stats').innerText.includes('done') \
         && document.querySelectorAll('#lines li').length == 3",
    );
    let first = "#lines li:first-child [data-pv-move]";
    let pv = browser.js(&format!(
        "return [...document.querySelectorAll('{first}')].map(e => e.dataset.pvMove)"
    ));
    let pv: Vec<String> = pv
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert!(pv.len() >= 3, "{pv:?}");
    let labels = "return [...document.querySelectorAll('[data-square]')]\
                  .map(e => e.getAttribute('aria-label'))";
    let (_, shown) = server.json("api/state?variant=dobutsu&moves=b2b3");
    assert_eq!(browser.js(labels), json!(dobutsu_labels(&shown)));
    let second = format!("{first}:nth-of-type(2)");
    browser.hover(&second);
    browser.wait_for(
        "the preview",
        "return document.getElementById('board').classList.contains('preview')",
    );
    let (_, after) = server.json(&format!(
        "api/state?variant=dobutsu&moves=b2b3+{}+{}",
        pv[0].replace('+', "%2B"),
        pv[1].replace('+', "%2B")
    ));
    assert_eq!(browser.js(labels), json!(dobutsu_labels(&after)));
    browser.hover("#status");
    browser.wait_for(
        "the position shown again",
        "return !document.getElementById('board').classList.contains('preview')",
    );
    assert_eq!(browser.js(labels), json!(dobutsu_labels(&shown)));
    browser.click(&second);
    browser.wait_for(
        "the line played",
        "return document.querySelector('#move-list button.current')?.dataset.ply == '3'",
    );
    // The new position's lines, drawn under the pointer that clicked: not looked at until the
    // pointer moves.
    browser.wait_for(
        "the new analysis done",
        "return document.getElementById('engine-stats').innerText.includes('done') \
         && document.querySelectorAll('#lines li').length == 3",
    );
    assert_eq!(
        browser.js("return document.getElementById('board').classList.contains('preview')"),
        false
    );
    assert_eq!(
        moves_of(&browser, "#move-list button"),
        ["b2b3", pv[0].as_str(), pv[1].as_str()]
    );
    assert_eq!(browser.js(labels), json!(dobutsu_labels(&after)));
}

/// The evaluation graph of a game and each side's summary: an Oware record the tables know
/// whole has a point for each position, every one exact, and its summary is the review's (the
/// seeds of margin each side lost, the moves that kept the value); a Dobutsu game outside any
/// table is valued by a search of each position, and its best moves found are the moves the
/// server's search of the same nodes chooses.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn the_evaluation_graph_and_summary_of_a_game() {
    let server = WebServer::start(&[]);
    let browser = Browser::start(1280, 860);
    let diagram = "2-0-1-0-3-0-0-1-0-2-1-0-20-18-S";
    browser.go(&format!(
        "{}?variant=awari&mode=study&theme=light&position={diagram}&moves=A+b+C",
        server.url
    ));
    browser.wait_for(
        "the game",
        "return document.querySelectorAll('#move-list button').length == 3",
    );
    browser.click("#evaluate");
    browser.wait_for(
        "four points",
        "return document.querySelectorAll('#eval-graph .point').length == 4 \
         && !document.getElementById('evaluate').disabled",
    );
    let exact = browser.js(
        "return [...document.querySelectorAll('#eval-graph .point')].map(p => p.dataset.exact)",
    );
    assert_eq!(exact, json!(["true", "true", "true", "true"]));
    let (_, review) = server.json(&format!(
        "api/review?variant=awari&position={diagram}&moves=A+b+C"
    ));
    for player in ["South", "North"] {
        let moves: Vec<&Value> = review["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["player"] == player)
            .collect();
        let seeds: u64 = moves
            .iter()
            .filter_map(|m| {
                m["cost"]
                    .as_str()?
                    .strip_prefix("lost ")?
                    .split(' ')
                    .next()?
                    .parse::<u64>()
                    .ok()
            })
            .sum();
        let kept = moves.iter().filter(|m| m["cost"].is_null()).count();
        let row = browser.js(&format!(
            "const r = document.querySelector('#summary tr[data-player=\"{player}\"]'); \
             return [r.querySelector('.seeds').textContent, r.querySelector('.best').textContent]"
        ));
        assert_eq!(
            row,
            json!([seeds.to_string(), format!("{kept} of {}", moves.len())]),
            "{player}"
        );
    }
    assert_eq!(
        browser.js("return document.querySelector('#summary tr[data-player=\"South\"] .seeds').textContent"),
        "4"
    );
    // A click on the graph's left end goes to the start.
    browser.js(
        "const g = document.getElementById('eval-graph').getBoundingClientRect(); \
         document.getElementById('eval-graph').dispatchEvent(new MouseEvent('click', \
         {clientX: g.left + 1, clientY: g.top + 5, bubbles: true})); return true",
    );
    browser.wait_for(
        "the start shown",
        "return !document.querySelector('#move-list button.current')",
    );

    // Dobutsu, no tables: a search of each position.
    // Six plies, each the last legal move the server lists.
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..6 {
        let (_, state) = server.json(&format!(
            "api/state?variant=dobutsu&moves={}",
            query(&moves)
        ));
        assert_eq!(state["end"], Value::Null, "{moves:?}");
        let legal = state["legal"].as_array().unwrap();
        moves.push(legal.last().unwrap()["move"].as_str().unwrap().to_string());
    }
    browser.go(&format!(
        "{}?variant=dobutsu&mode=study&theme=light&moves={}",
        server.url,
        query(&moves)
    ));
    browser.wait_for(
        "the game",
        "return document.querySelectorAll('#move-list button').length == 6",
    );
    browser.click("#evaluate");
    browser.wait_for(
        "seven points",
        "return document.querySelectorAll('#eval-graph .point').length == 7 \
         && !document.getElementById('evaluate').disabled",
    );
    let mut found = [0, 0];
    for (i, mv) in moves.iter().enumerate() {
        let (_, best) = server.json(&format!(
            "api/bestmove?variant=dobutsu&nodes=20000&moves={}",
            query(&moves[..i])
        ));
        if best["move"] == mv.as_str() {
            found[i % 2] += 1;
        }
    }
    for (player, n) in ["Sente", "Gote"].iter().zip(found) {
        let best = browser.js(&format!(
            "return document.querySelector('#summary tr[data-player=\"{player}\"] .best').textContent"
        ));
        assert_eq!(best, format!("{n} of 3"), "{player}");
    }
}

/// The text of the element `id`, and its `data-` attribute `data` (`ms`, `outcome`).
fn text_and_data(browser: &Browser, id: &str, data: &str) -> (String, String) {
    let v = browser.js(&format!(
        "const e = document.querySelector('{id}'); return [e.textContent, e.dataset.{data} || '']"
    ));
    (
        v[0].as_str().unwrap().to_string(),
        v[1].as_str().unwrap().to_string(),
    )
}

/// A game on a game clock (10 s and 1 s a move, chosen as a person chooses a time control): the
/// engine plays on its clock (its time less what it thought, plus the increment), the person's
/// clock runs on their move, and when it runs out the game ends on time, said in the banner,
/// with no move left to make; a rematch swaps the sides and starts the clocks again.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn a_clock_game_ends_on_time_and_a_rematch_swaps_the_sides() {
    let (_server, browser) = open(
        Browser::start(1280, 860),
        "variant=abapa&mode=play&theme=light",
        "the legal houses",
        "return document.querySelectorAll('[data-square].legal').length == 6",
    );
    // On a time a move: no clocks drawn, and no rematch before the game ends.
    assert_eq!(
        browser.js("return [document.getElementById('clocks').offsetParent, \
             document.getElementById('rematch').offsetParent]"),
        json!([null, null])
    );
    browser.js("const s = document.getElementById('time-control'); \
         s.add(new Option('10 s + 1 s', 'clock=10000+1000')); s.value = 'clock=10000+1000'; \
         s.dispatchEvent(new Event('change')); \
         const side = document.getElementById('side'); side.value = '1'; \
         side.dispatchEvent(new Event('change')); return true");
    // The engine (South) moves on its clock; then the person's (North's) runs.
    browser.wait_for(
        "the engine's move",
        "return document.querySelectorAll('#move-list button').length == 1 \
         && document.querySelector('#clocks .clock:nth-child(2)').classList.contains('running')",
    );
    let (south, ms) = text_and_data(&browser, "#clocks .clock:nth-child(1)", "ms");
    assert!(south.starts_with("South 0:"), "{south}");
    let ms: u64 = ms.parse().unwrap();
    assert!(
        ms > 1000 && ms <= 11000,
        "South's clock after its move: {ms}"
    );
    browser.wait_for(
        "North's flag",
        "return !document.getElementById('result-banner').hidden",
    );
    assert_eq!(
        text_and_data(&browser, "#result-banner", "outcome"),
        (
            "You lost on time: South wins.".to_string(),
            "lost".to_string()
        )
    );
    assert_eq!(
        text_and_data(&browser, "#clocks .clock:nth-child(2)", "ms"),
        ("North 0:00.0".to_string(), "0".to_string())
    );
    // The banner says it; the status line does not repeat it.
    assert_eq!(
        browser.js("return document.getElementById('status').textContent"),
        ""
    );
    assert_eq!(
        browser.js("return document.querySelectorAll('[data-square].legal').length"),
        0
    );
    assert_eq!(
        browser.js("return document.querySelectorAll('#move-list button').length"),
        1
    );
    // A rematch: the person plays South, both clocks at 10 s, South's running.
    browser.click("#rematch");
    browser.wait_for(
        "the rematch",
        "return document.getElementById('result-banner').hidden \
         && document.querySelectorAll('[data-square].legal').length == 6 \
         && document.querySelectorAll('#move-list button').length == 0",
    );
    assert_eq!(
        browser.js("return document.getElementById('side').value"),
        "0"
    );
    assert_eq!(
        text_and_data(&browser, "#clocks .clock:nth-child(2)", "ms").1,
        "10000"
    );
    assert_eq!(
        browser.js(
            "return document.querySelector('#clocks .clock:nth-child(1)').classList.contains('running')"
        ),
        true
    );
}

/// Play's buttons: a hint marks the tables' best move; the engine declines a draw in a position
/// the person wins, and accepts one whose value is a draw; resigning ends the game, said in the
/// banner.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn hint_draw_offer_and_resignation() {
    // South wins by 6 seeds with E (the tables).
    let (server, browser) = open(
        Browser::start(1280, 860),
        "variant=awari&mode=play&theme=light&position=2-0-1-0-3-0-0-1-0-2-1-0-20-18-S",
        "the legal houses",
        "return document.querySelectorAll('[data-square].legal').length == 3",
    );
    browser.click("#hint");
    browser.wait_for(
        "the hint",
        "return document.querySelector('[data-square=\"E\"].best') \
         && document.getElementById('hint-answer').textContent == 'Hint: E.'",
    );
    browser.click("#offer-draw");
    browser.wait_for(
        "the draw declined",
        "return document.getElementById('draw-answer').textContent == 'The engine declines the draw.'",
    );
    // Each answer has its place: the later one leaves the earlier one and the status in view.
    assert_eq!(
        browser.js(
            "return ['hint-answer', 'status'].map(id => document.getElementById(id).innerText)"
        ),
        json!(["Hint: E.", "South to move: your move."])
    );
    browser.js("window.confirm = () => true; return true");
    browser.click("#resign");
    browser.wait_for(
        "the resignation",
        "return !document.getElementById('result-banner').hidden",
    );
    assert_eq!(
        text_and_data(&browser, "#result-banner", "outcome"),
        ("You lost: South resigned.".to_string(), "lost".to_string())
    );
    assert_eq!(
        browser.js("return document.querySelectorAll('[data-square].legal').length"),
        0
    );
    // Two seeds, one each, equal stores: a draw.
    browser.go(&format!(
        "{}?variant=awari&mode=play&theme=light&position=0-0-0-0-0-1-0-0-0-0-0-1-23-23-S",
        server.url
    ));
    browser.wait_for(
        "the legal house",
        "return document.querySelectorAll('[data-square].legal').length == 1",
    );
    browser.click("#offer-draw");
    browser.wait_for(
        "the draw agreed",
        "return !document.getElementById('result-banner').hidden",
    );
    assert_eq!(
        text_and_data(&browser, "#result-banner", "outcome"),
        ("Draw by agreement.".to_string(), "draw".to_string())
    );
    assert_eq!(
        browser.js("return document.getElementById('status').textContent"),
        ""
    );
}

/// Dobutsu's pieces are dragged as well as clicked: a piece dropped on a square it cannot reach
/// goes back (no move, nothing picked); dropped on one it can, the move is played.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn a_piece_is_dragged_and_dropped() {
    let (_server, browser) = open(
        Browser::start(1280, 860),
        "variant=dobutsu&mode=play&theme=light",
        "Sente's movable pieces",
        "return document.querySelectorAll('.cell.movable').length > 0",
    );
    // The chick on b2 cannot go to a4.
    browser.pointer_drag("mouse", r#"[data-square="b2"]"#, r#"[data-square="a4"]"#);
    assert_eq!(
        browser.js(
            "return [document.querySelectorAll('#move-list button').length, \
             document.querySelectorAll('.selected').length, \
             document.querySelectorAll('#board .ghost').length]"
        ),
        json!([0, 0, 0])
    );
    assert_eq!(
        browser
            .js("return document.querySelector('[data-square=\"b2\"]').getAttribute('aria-label')"),
        "b2: Sente's Chick"
    );
    browser.pointer_drag("mouse", r#"[data-square="b2"]"#, r#"[data-square="b3"]"#);
    browser.wait_for(
        "the move dragged",
        "return document.querySelector('#move-list button')?.dataset.move == 'b2b3'",
    );
}

/// The rules in short words, for the game chosen: Oware's (Abapa's grand slam, or Awari's) or
/// Dobutsu's.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn the_rules_panel_follows_the_game() {
    let server = WebServer::start(&[]);
    let browser = Browser::start(1280, 860);
    // The rules and paragraphs drawn (the panel open), by id or class.
    let shown = "return [...document.querySelectorAll('#rules-box .rules, #rules-box p')]\
                 .filter(e => e.offsetParent !== null).map(e => e.id || e.className)\
                 .filter(x => x)";
    for (variant, want) in [
        ("abapa", json!(["rules-oware", "abapa-only"])),
        ("awari", json!(["rules-oware", "awari-only"])),
        ("dobutsu", json!(["rules-dobutsu"])),
    ] {
        browser.go(&format!("{}?variant={variant}&theme=light", server.url));
        browser.wait_for(
            "the board",
            "return document.querySelectorAll('[data-square]').length >= 12",
        );
        browser.click("#rules-box summary");
        assert_eq!(browser.js(shown), want, "{variant}");
    }
    let text = browser.js("return document.getElementById('rules-dobutsu').innerText");
    assert!(text.as_str().unwrap().contains("Try"), "{text}");
}

/// The analysis stops at the depth chosen in `Think for`.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn the_analysis_stops_at_the_depth_chosen() {
    let (_server, browser) = open(
        Browser::start(1280, 860),
        "variant=abapa&mode=study&theme=light",
        "the board",
        "return document.querySelectorAll('[data-square]').length == 12",
    );
    browser.js(
        "const s = document.getElementById('analysis-limit'); s.value = 'depth=10'; \
         s.dispatchEvent(new Event('change')); return s.value",
    );
    let stats = browser.wait_for(
        "the analysis done",
        "const t = document.getElementById('engine-stats').innerText; \
         return t.includes('done') && t",
    );
    assert!(stats.as_str().unwrap().starts_with("depth 10/"), "{stats}");
}

/// The keyboard: `Enter` on a Dobutsu piece picks it and keeps the focus on it (the board is
/// redrawn); a choice made in the `Lines` select leaves the arrow keys stepping through the game.
/// A drop's best-move mark names the piece dropped.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn the_keyboard_keeps_its_place_and_a_drop_mark_names_its_piece() {
    const ENTER: &str = "\u{E007}";
    const LEFT: &str = "\u{E012}";
    const DOWN: &str = "\u{E015}";
    let (_server, browser) = open(
        Browser::start(1280, 860),
        "variant=dobutsu&mode=study&theme=light&moves=b2b3+a4a3",
        "the board",
        "return document.querySelectorAll('.cell.movable').length > 0",
    );
    // The analysis off, so that the board is not redrawn with its best move meanwhile.
    browser.click("#engine-on");
    browser.wait_for(
        "the analysis off",
        "return document.querySelectorAll('#lines li').length == 0 \
         && !document.querySelector('#board .arrow')",
    );
    browser.send_keys(r#"[data-square="c1"]"#, ENTER);
    browser.wait_for(
        "the giraffe picked",
        "return document.querySelector('[data-square=\"c1\"]').classList.contains('selected')",
    );
    assert_eq!(
        browser.js("return document.activeElement.getAttribute('data-square')"),
        "c1"
    );
    // Lines: 3, then 4 by the arrow key; the next arrow key steps back a move.
    browser.send_keys("#multipv", DOWN);
    browser.wait_for(
        "four lines asked",
        "return document.getElementById('multipv').value == '4'",
    );
    browser.press(LEFT);
    browser.wait_for(
        "a move back",
        "return document.querySelector('#move-list button.current')?.dataset.ply == '1'",
    );
    assert_eq!(
        browser.js("return document.getElementById('multipv').value"),
        "4"
    );
    // A drop marked as the best move (as the tables or the search mark one): its piece named.
    browser.js(
        "return import('/state.js').then(s => import('/board.js').then(b => { \
           s.app.bestMove = 'C@a2'; b.draw(); return true; }))",
    );
    assert_eq!(
        browser.js("const l = document.querySelector('#board .drop-label'); return [l.textContent, l.dataset.drop]"),
        json!(["Chick", "C"])
    );
}

/// Samples the status line every 5 ms into `window.statuses` (each change once).
const SAMPLE_STATUS: &str = "window.statuses = []; setInterval(() => { \
    const t = document.getElementById('status').textContent; \
    if (window.statuses[window.statuses.length - 1] !== t) window.statuses.push(t); }, 5); \
    return true";

/// Every answer of /api/state comes `ms` late (a slow server or network).
fn slow_state(browser: &Browser, ms: u32) {
    browser.js(&format!(
        "const real = window.fetch; window.fetch = (url, init) => String(url).includes('/api/state') \
         ? new Promise((r) => setTimeout(r, {ms})).then(() => real(url, init)) : real(url, init); \
         return true"
    ));
}

/// The player's own sowing says so from the click on (never "your move" while the server
/// answers and the seeds are sown); an Oware end where each side takes its own row shows that
/// counting: the houses empty, the stores the result's (20-28), as the status says.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn own_sowing_is_said_and_an_end_shows_the_final_counting() {
    let (_server, browser) = open(
        Browser::start(1280, 860),
        "variant=abapa&mode=play&theme=light&position=0-0-0-0-0-1-3-2-2-2-0-0-20-18-S",
        "South's one legal house",
        "return document.querySelectorAll('[data-square].legal').length == 1",
    );
    slow_state(&browser, 600);
    browser.js(SAMPLE_STATUS);
    browser.click(r#"[data-square="F"]"#);
    browser.wait_for(
        "the game's end",
        "return !document.getElementById('result-banner').hidden",
    );
    let statuses = browser.js("return window.statuses");
    let statuses: Vec<&str> = statuses
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(statuses[0], "South to move: your move.", "{statuses:?}");
    assert_eq!(statuses[1], "South sows F…", "{statuses:?}");
    assert!(
        statuses[1..].iter().all(|s| !s.contains("your move")),
        "{statuses:?}"
    );
    assert_eq!(*statuses.last().unwrap(), "", "{statuses:?}");
    assert_eq!(
        text_and_data(&browser, "#result-banner", "outcome"),
        (
            "You lost (20-28): the player to move cannot move or feed; each player takes their \
             own row."
                .to_string(),
            "lost".to_string()
        )
    );
    let stores = browser.js(
        "return [...document.querySelectorAll('[data-store]')].map(e => e.getAttribute('aria-label')).sort()",
    );
    assert_eq!(
        stores,
        json!(["North's store: 28 seeds", "South's store: 20 seeds"])
    );
    let houses = browser.js(
        "return [...document.querySelectorAll('[data-square]')].filter(e => !e.getAttribute('aria-label').endsWith(': 0 seeds')).length",
    );
    assert_eq!(houses, 0);
}

/// Level 6 says what it plays by now (the server's words): by search where Dobutsu has no
/// solution, by search with endgame tables in Oware; never "perfect" without the solution.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn level_6_is_labelled_by_what_it_plays_by() {
    let server = WebServer::start(&[]);
    let browser = Browser::start(1280, 860);
    let label =
        "return document.querySelector('#level option[value=\"6\"]').textContent + ' | ' + \
                 document.getElementById('level-note').textContent";
    browser.go(&format!("{}?variant=dobutsu&mode=play", server.url));
    browser.wait_for(
        "Dobutsu's label",
        "return document.getElementById('level-note').textContent",
    );
    assert_eq!(browser.js(label), "6 (search) | Level 6 plays by: search.");
    browser.js("window.confirm = () => true; return true");
    browser.js(
        "const v = document.getElementById('variant'); v.value = 'abapa'; \
         v.dispatchEvent(new Event('change')); return true",
    );
    browser.wait_for(
        "Oware's label",
        "return document.getElementById('level-note').textContent.includes('tables')",
    );
    assert_eq!(
        browser.js(label),
        "6 (search with endgame tables) | Level 6 plays by: search with endgame tables."
    );
}

/// Three long engine lines take one row each (the rest on demand), so that at 1280x800 the
/// board, the values and the moves are all in view.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn long_engine_lines_leave_the_values_and_moves_in_view() {
    let (_server, browser) = open(
        Browser::emulated(1280, 800, false),
        "variant=abapa&mode=study&theme=light&moves=C+f+D+e",
        "three lines of 20 moves or more",
        "const lines = [...document.querySelectorAll('#lines li')]; \
         return lines.length == 3 && lines.every(l => l.querySelectorAll('[data-pv-move]').length >= 20)",
    );
    let v = browser.numbers(
        "const b = (css) => Math.round(document.querySelector(css).getBoundingClientRect().bottom); \
         return [window.innerHeight, b('#board'), b('#values-panel'), b('#moves-panel'), \
           ...[...document.querySelectorAll('#lines li')].map(l => Math.round(l.getBoundingClientRect().height))]",
    );
    assert_eq!(v[0], 800.0, "{v:?}");
    assert!(v[1..4].iter().all(|&b| b <= 800.0), "{v:?}");
    assert!(v[4..].iter().all(|&h| h < 40.0), "one row a line: {v:?}");
    // The whole first line on demand.
    browser.click("#lines li:first-child .more");
    browser.wait_for(
        "the first line whole",
        "return document.querySelector('#lines li:first-child').getBoundingClientRect().height > 40",
    );
    assert_eq!(
        browser.js("return document.querySelector('#lines li:first-child .more').getAttribute('aria-expanded')"),
        "true"
    );
}

/// Without a value for the position or its moves (no tables here), the Values panel is one
/// line saying so, not a row of dashes a move that pushes the moves down on a phone.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn values_outside_the_tables_are_one_line() {
    let (_server, browser) = open(
        Browser::emulated(390, 844, true),
        "variant=abapa&mode=study&theme=light",
        "the note of no values",
        "return document.getElementById('tables-note').textContent.startsWith('No exact values here')",
    );
    let v = browser.js(
        "const note = document.getElementById('tables-note'); \
         return [document.getElementById('values').hidden, \
           note.getBoundingClientRect().height < 1.8 * parseFloat(getComputedStyle(note).fontSize)]",
    );
    assert_eq!(
        v,
        json!([true, true]),
        "the table hidden, the note one line"
    );
}

/// Oware on a phone (390x844, a touch screen): houses of at least 44 pixels, their letters of
/// at least 11, the whole board on screen; a tap on a house plays it.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn oware_on_a_phone_has_houses_to_tap() {
    let (_server, browser) = open(
        Browser::emulated(390, 844, true),
        "variant=abapa&mode=play&theme=dark",
        "the legal houses",
        "return document.querySelectorAll('[data-square].legal').length == 6",
    );
    let v = browser.numbers(
        "const svg = document.getElementById('board'); const box = svg.getBoundingClientRect(); \
         const scale = box.width / svg.viewBox.baseVal.width; \
         const pits = [...document.querySelectorAll('[data-square] .pit')].map(p => p.getBoundingClientRect().width); \
         const names = [...document.querySelectorAll('[data-square] .name')].map(n => parseFloat(getComputedStyle(n).fontSize) * scale); \
         return [Math.min(...pits), Math.min(...names), box.left, box.top, box.right, box.bottom, \
           window.innerWidth, window.innerHeight, document.documentElement.scrollWidth]",
    );
    assert!(v[0] >= 44.0, "houses {} px: {v:?}", v[0]);
    assert!(v[1] >= 11.0, "letters {} px: {v:?}", v[1]);
    assert!(v[2] >= 0.0 && v[3] >= 0.0, "{v:?}");
    assert!(v[4] <= v[6] && v[5] <= v[7], "{v:?}");
    assert!(v[8] <= v[6], "nothing wider than the screen: {v:?}");
    browser.screenshot("oware-phone.png");
    browser.tap(r#"[data-square="C"]"#);
    browser.wait_for(
        "the tapped move",
        "return document.querySelector('#move-list button')?.dataset.move == 'C'",
    );
}

/// New game after a set-up: from the set-up again, or from the game's start position.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn a_new_game_after_a_set_up_may_start_from_either() {
    let server = WebServer::start(&[]);
    let browser = Browser::start(1280, 860);
    let setup = "0-0-0-0-0-1-3-2-2-2-0-0-20-18-S";
    browser.go(&format!(
        "{}?variant=abapa&mode=study&theme=light&position={setup}",
        server.url
    ));
    browser.wait_for(
        "the set-up",
        "return document.querySelector('[data-square=\"a\"]')?.getAttribute('aria-label') == 'a: 3 seeds'",
    );
    let buttons = "return [document.getElementById('new-game').textContent, \
                   document.getElementById('new-game-start').hidden]";
    assert_eq!(
        browser.js(buttons),
        json!(["New game from this set-up", false])
    );
    browser.js("window.confirm = () => true; return true");
    browser.click("#new-game");
    browser.wait_for(
        "the set-up again",
        &format!("return new URLSearchParams(location.search).get('position') == '{setup}'"),
    );
    browser.click("#new-game-start");
    browser.wait_for(
        "the start position",
        "return document.querySelector('[data-square=\"a\"]')?.getAttribute('aria-label') == 'a: 4 seeds'",
    );
    assert!(browser
        .js("return new URLSearchParams(location.search).get('position')")
        .is_null());
    assert_eq!(browser.js(buttons), json!(["New game", true]));
}

/// A game imported is marked where the tables do not reach too: a 16-ply Oware game (South
/// gives its seeds away, 0-21 in the stores) is outside the 12-seed table throughout, and its
/// marks come from the search's values, said to be so.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn an_imported_game_is_marked_by_search_outside_the_tables() {
    let (_server, browser) = open(
        Browser::start(1280, 860),
        "variant=abapa&mode=study&theme=light",
        "the board",
        "return document.querySelectorAll('[data-square]').length == 12",
    );
    let record = "[Variant \"Oware Abapa\"]\n[South \"?\"]\n[North \"?\"]\n[Result \"*\"]\n\n\
                  1. A f 2. C d 3. F f 4. D e 5. A c 6. E e 7. B b 8. A f *\n";
    browser.js(&format!(
        "window.confirm = () => true; document.getElementById('record-box').open = true; \
         document.getElementById('record-text').value = {}; return true",
        serde_json::to_string(record).unwrap()
    ));
    browser.click("#import");
    browser.wait_for(
        "the review done",
        "return document.querySelectorAll('#move-list button').length == 16 && \
         document.querySelector('#eval-graph [data-ply=\"16\"]') && !document.getElementById('evaluate').disabled",
    );
    let marks = browser.js(
        "return [...document.querySelectorAll('#move-list [data-mark]')].map(e => [e.dataset.mark, e.dataset.exact, e.title])",
    );
    let marks = marks.as_array().unwrap();
    assert!(!marks.is_empty(), "no marks");
    for m in marks {
        assert_eq!(m[1], "false", "{m}");
        assert!(
            m[2].as_str().unwrap().ends_with("(a search's values)"),
            "{m}"
        );
        assert!(
            m[2].as_str()
                .unwrap()
                .contains("'s share of the game fell from"),
            "{m}"
        );
    }
    // South gave its seeds away: the marks are South's moves (even plies from 0).
    let south = browser.js(
        "return [...document.querySelectorAll('#move-list [data-mark]')].every(e => Number(e.dataset.ply) % 2 == 1)",
    );
    assert_eq!(south, true);
    assert_eq!(
        browser.js("return document.getElementById('marks-note').hidden"),
        false
    );
}

/// On a touch screen a Dobutsu piece is dragged with a finger (pointer events from touch):
/// dropped on a square it cannot reach it goes back, on its square the move is played.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn a_piece_is_dragged_by_touch_on_a_phone() {
    let (_server, browser) = open(
        Browser::emulated(390, 844, true),
        "variant=dobutsu&mode=play&theme=light",
        "Sente's movable pieces",
        "return document.querySelectorAll('.cell.movable').length > 0",
    );
    browser.pointer_drag("touch", r#"[data-square="b2"]"#, r#"[data-square="a4"]"#);
    assert_eq!(
        browser.js(
            "return [document.querySelectorAll('#move-list button').length, \
             document.querySelectorAll('#board .ghost').length, \
             document.querySelector('[data-square=\"b2\"]').getAttribute('aria-label')]"
        ),
        json!([0, 0, "b2: Sente's Chick"])
    );
    browser.pointer_drag("touch", r#"[data-square="b2"]"#, r#"[data-square="b3"]"#);
    browser.wait_for(
        "the move dragged by touch",
        "return document.querySelector('#move-list button')?.dataset.move == 'b2b3'",
    );
}

/// On a touch screen a finger on Dobutsu's board scrolls the page unless it starts on a piece
/// the player may move: on an empty square or the opponent's piece the page scrolls, on the
/// player's own piece it drags the piece and the page stays.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn a_touch_off_the_players_pieces_scrolls_the_page() {
    let (_server, browser) = open(
        Browser::emulated(390, 844, true),
        "variant=dobutsu&mode=play&theme=light",
        "Sente's movable pieces",
        "return document.querySelectorAll('.cell.movable').length > 0",
    );
    // Room to scroll whatever the layout.
    browser.js("document.body.style.paddingBottom = '2000px'; return true");
    let scrolled_by = |css: &str| {
        browser.js("window.scrollTo(0, 0); return true");
        browser.touch_swipe(css, -150);
        std::thread::sleep(Duration::from_millis(500));
        browser.js("return window.scrollY").as_f64().unwrap()
    };
    // a3: empty at the start; b3: Gote's Chick; b2: Sente's Chick.
    assert!(scrolled_by(r#"[data-square="a3"]"#) > 50.0);
    assert!(scrolled_by(r#"[data-square="b3"]"#) > 50.0);
    assert_eq!(scrolled_by(r#"[data-square="b2"]"#), 0.0);
    assert_eq!(
        browser.js("return document.querySelectorAll('#move-list button').length"),
        json!(0)
    );
}

/// On a game clock the person is charged for their own thinking only: the clock stops at the
/// click, not when the server has answered (here 1.5 s late) and the seeds are sown, and the
/// increment is added.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn the_clock_leaves_out_the_round_trip_and_the_sowing() {
    let (_server, browser) = open(
        Browser::start(1280, 860),
        "variant=abapa&mode=play&theme=light",
        "the legal houses",
        "return document.querySelectorAll('[data-square].legal').length == 6",
    );
    browser.js(
        "const t = document.getElementById('time-control'); t.value = 'clock=60000+1000'; \
         t.dispatchEvent(new Event('change')); return true",
    );
    browser.wait_for(
        "South's clock running",
        "return document.querySelector('.clock.running')?.dataset.player == 'South'",
    );
    slow_state(&browser, 1500);
    let before = Instant::now();
    browser.click(r#"[data-square="C"]"#);
    let clicked = before.elapsed();
    browser.wait_for(
        "the engine thinking",
        "return document.querySelector('.clock.running')?.dataset.player == 'North'",
    );
    let south: f64 = browser
        .js("return Number(document.querySelector('.clock[data-player=\"South\"]').dataset.ms)")
        .as_f64()
        .unwrap();
    // 60 s, less the moments before the click, plus the 1 s increment; the 1.5 s the server
    // took and the sowing are not South's.
    assert!(south <= 61000.0, "{south}");
    assert!(
        south >= 61000.0 - 500.0 - clicked.as_millis() as f64,
        "South charged for the round trip: {south} ms left"
    );
}

/// One convention on the whole page: the engine's lines, the values pane's signed column and
/// the bar read from the first player's view (so labelled), the values' words name the player
/// they favour. North to move, lost by 6 seeds: every number says +, South's.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn lines_and_values_read_from_the_same_side() {
    let (_server, browser) = open(
        Browser::start(1280, 860),
        "variant=awari&mode=study&theme=light&position=2-0-1-0-3-0-0-1-0-2-1-0-20-18-S&moves=E",
        "the values and a line",
        "return document.querySelector('#values tbody tr') && document.querySelector('#lines li .score')",
    );
    let (values, line, view) = (
        browser.texts("#values tbody tr td.signed"),
        browser.texts("#lines li .score"),
        browser.texts("#lines-view, #values-view"),
    );
    assert_eq!(values[0], "+6", "{values:?}");
    assert!(line[0].starts_with('+'), "{line:?}");
    assert_eq!(
        view,
        [
            "Scores from South's view: + is good for South.",
            "South's view"
        ]
    );
    let words = browser.texts("#values tbody tr td:last-child");
    assert_eq!(words[0], "South wins by 6 seeds", "{words:?}");
    let tag = browser.js("return document.getElementById('position-value').textContent");
    assert_eq!(tag, "+6 · South wins by 6 seeds");
}

/// A game the player ended (here resigned) stays ended across a reload (the address and the
/// browser keep it), and its record says so: the result and how it ended.
#[test]
#[ignore = "needs Chromium and ChromeDriver (CI installs them)"]
fn a_resigned_game_stays_ended_across_a_reload_and_in_its_record() {
    let server = WebServer::start(&[]);
    let browser = Browser::start(1280, 860);
    browser.go(&format!(
        "{}?variant=abapa&mode=play&theme=light",
        server.url
    ));
    browser.js("localStorage.clear(); return true");
    browser.go(&format!(
        "{}?variant=abapa&mode=play&theme=light",
        server.url
    ));
    browser.wait_for(
        "the legal houses",
        "return document.querySelectorAll('[data-square].legal').length == 6",
    );
    browser.click(r#"[data-square="C"]"#);
    browser.wait_for(
        "the engine's reply",
        "return document.getElementById('status').textContent.includes('your move')",
    );
    browser.js("window.confirm = () => true; return true");
    browser.click("#resign");
    let banner = "return document.getElementById('result-banner').textContent";
    browser.wait_for("the banner", banner);
    assert_eq!(browser.js(banner), "You lost: South resigned.");
    let query = browser.js("return location.search");
    assert!(
        query
            .as_str()
            .unwrap()
            .ends_with("&winner=North&how=resigned"),
        "{query}"
    );
    browser.js("location.reload(); return true");
    browser.wait_for(
        "the game again, ended",
        "return document.querySelectorAll('#move-list button').length == 2 && \
         document.getElementById('result-banner').textContent",
    );
    assert_eq!(browser.js(banner), "You lost: South resigned.");
    assert_eq!(
        browser.js("return document.querySelectorAll('[data-square].legal').length"),
        0
    );
    browser.js("document.getElementById('record-box').open = true; return true");
    browser.click("#export");
    browser.wait_for(
        "the record",
        "return document.getElementById('record-text').value.includes('Termination')",
    );
    let record = browser.js("return document.getElementById('record-text').value");
    let record = record.as_str().unwrap();
    assert!(record.contains("[Result \"0-1\"]"), "{record}");
    assert!(
        record.contains("[Termination \"forfeit: South resigned\"]"),
        "{record}"
    );
}
