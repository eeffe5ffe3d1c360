//! `perfectplay serve`: the board in the browser. A local HTTP server (tiny_http) that serves the
//! page (its HTML, script and style compiled into the binary) and the JSON API the page uses
//! ([`api`], docs/web.md); the engine runs in this process through the library. Analysis is
//! streamed as Server-Sent Events, one search per page: a page's new search stops its last, and
//! a search stops when its page goes away (its stream can no longer be written).

mod api;
mod board;

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::IpAddr;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use anyhow::Context;
use serde_json::{json, Value};
use tiny_http::{Header, Method, Request, Response, Server};

use api::{ApiError, ApiResult, Games, SearchEvent, WebVisit};
use board::WebGame;
use perfectplay::search::Control;
use perfectplay::variant::Variant;

/// The page, its script and its style, compiled in.
const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");
const ICON_SVG: &str = include_str!("assets/icon.svg");

/// The longest request body read (a pasted record), in bytes.
const MAX_BODY: u64 = 1 << 20;
/// How often a stream is written to while a search finds nothing new (a `tick` event), so that
/// the page's clock moves and a page that went away is noticed and its search stopped.
const HEARTBEAT: Duration = Duration::from_millis(250);
/// How long a `bestmove` request thinks when it gives no limit, in ms.
const DEFAULT_MOVETIME_MS: u64 = 1000;
/// The endpoints of the API, each with the methods it answers, as its `Allow` header lists them
/// (`HEAD` as `GET` without the body; not on the analysis stream, which would start a search).
const ENDPOINTS: [(&str, &str); 8] = [
    ("/api/info", "GET, HEAD"),
    ("/api/state", "GET, HEAD"),
    ("/api/probe", "GET, HEAD"),
    ("/api/review", "GET, HEAD"),
    ("/api/bestmove", "GET, HEAD"),
    ("/api/analysis", "GET"),
    ("/api/record", "GET, HEAD"),
    ("/api/import", "POST"),
];

/// The arguments of `perfectplay serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on; 0 (the default) takes a free one. The address is printed on
    /// standard output.
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// The address to listen on: 127.0.0.1 (the default) lets only this machine in; 0.0.0.0
    /// lets in every machine that can reach this one.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Opens the page in the default browser.
    #[arg(long)]
    open: bool,
    /// Sets an option of the games, as the protocol's `setoption` would (repeatable), e.g.
    /// --option TablebasePath=tables --option SolutionPath=dobutsu.solution.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Does not build the Dobutsu Shogi solution in the background when it is missing from
    /// its default place (it is built by default, as the protocol's AutoSolve does).
    #[arg(long)]
    no_solve: bool,
    /// Transposition table of each search, in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    /// Threads of each search (lazy SMP).
    #[arg(long, default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=perfectplay::protocol::max_threads() as u64))]
    threads: u64,
    /// The longest a `/api/bestmove` request may think, in ms: a longer `movetime` is refused,
    /// and a search limited by depth or nodes is stopped there and answers with what it found.
    #[arg(long, default_value_t = 60_000,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    max_movetime: u64,
}

/// A request's query: its `name=value` pairs, decoded.
#[derive(Default, Debug)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// The query of a URL's text after `?`.
    fn parse(text: &str) -> Query {
        Query {
            pairs: form_urlencoded::parse(text.as_bytes())
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
        }
    }

    /// The value of `name`, the first if given twice.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Adds a pair.
    pub fn push(&mut self, name: &str, value: &str) {
        self.pairs.push((name.to_string(), value.to_string()));
    }
}

/// What the server shares between requests.
struct Shared {
    games: Games,
    hash_mb: usize,
    threads: usize,
    /// The longest a `/api/bestmove` search runs.
    max_movetime: Duration,
    /// The running search of each page (`page=` of the analysis request), to stop it when the
    /// page starts another.
    searches: Mutex<HashMap<String, Arc<Control>>>,
    /// Searches running now.
    running: Mutex<usize>,
}

/// Runs the server until the process is stopped; prints `perfectplay serve: http://ADDR/` on
/// `out` first.
///
/// # Errors
/// When the address cannot be listened on or an option is refused.
pub fn run(args: ServeArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let games = Games::new(&args.options, !args.no_solve).map_err(anyhow::Error::msg)?;
    let server = Server::http((args.bind, args.port))
        .map_err(|e| anyhow::anyhow!("listening on {}:{}: {e}", args.bind, args.port))?;
    let addr = server
        .server_addr()
        .to_ip()
        .context("the server's address")?;
    let url = format!("http://{addr}/");
    writeln!(out, "perfectplay serve: {url}")?;
    out.flush()?;
    if args.open {
        if let Err(e) = open::that_detached(&url) {
            log::warn!("could not open a browser at {url}: {e}");
        }
    }
    let shared = Arc::new(Shared {
        games,
        hash_mb: args.hash as usize,
        threads: args.threads as usize,
        max_movetime: Duration::from_millis(args.max_movetime),
        searches: Mutex::new(HashMap::new()),
        running: Mutex::new(0),
    });
    for request in server.incoming_requests() {
        let shared = Arc::clone(&shared);
        thread::spawn(move || handle(&shared, request));
    }
    Ok(())
}

/// A JSON reply.
fn json_response(status: u16, body: &Value) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_string(body.to_string())
        .with_status_code(status)
        .with_header(content_type("application/json"))
}

fn content_type(value: &str) -> Header {
    Header::from_bytes("Content-Type", value).expect("a valid header")
}

/// Answers one request; a failure to write the answer (the page went away) is only logged.
/// `HEAD` is answered as `GET` without the body (tiny_http leaves it out), except on the
/// analysis stream, which would start a search.
fn handle(shared: &Shared, request: Request) {
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let query = Query::parse(query);
    let method = request.method().clone();
    log::debug!("{method} {url}");
    let asset = |body: &str, kind: &str| {
        Response::from_string(body)
            .with_header(content_type(kind))
            .with_header(Header::from_bytes("Cache-Control", "no-cache").expect("a valid header"))
    };
    let readable = matches!(method, Method::Get | Method::Head);
    let result = match path {
        "/" | "/index.html" if readable => {
            request.respond(asset(INDEX_HTML, "text/html; charset=utf-8"))
        }
        "/app.js" if readable => request.respond(asset(APP_JS, "text/javascript; charset=utf-8")),
        "/style.css" if readable => request.respond(asset(STYLE_CSS, "text/css; charset=utf-8")),
        "/icon.svg" if readable => request.respond(asset(ICON_SVG, "image/svg+xml")),
        "/" | "/index.html" | "/app.js" | "/style.css" | "/icon.svg" => {
            request.respond(not_allowed(&method, path, "GET, HEAD"))
        }
        api if api.starts_with("/api/") => answer_api(shared, request, api, &query),
        _ => request.respond(error_response(&ApiError {
            status: 404,
            message: format!("no page {path}"),
        })),
    };
    if let Err(e) = result {
        log::debug!("answering {url}: {e}");
    }
}

/// Answers a request to the API at `path`: 404 for a path that is no endpoint, 405 (with the
/// `Allow` header) for a method the endpoint does not answer.
fn answer_api(
    shared: &Shared,
    mut request: Request,
    path: &str,
    query: &Query,
) -> std::io::Result<()> {
    let method = request.method().clone();
    let Some(&(_, allow)) = ENDPOINTS.iter().find(|(p, _)| *p == path) else {
        return request.respond(error_response(&ApiError {
            status: 404,
            message: format!("no endpoint {path}"),
        }));
    };
    if !allow.split(", ").any(|m| m == method.as_str()) {
        return request.respond(not_allowed(&method, path, allow));
    }
    match path {
        "/api/analysis" => {
            stream_analysis(shared, request, query);
            Ok(())
        }
        "/api/record" => match record_text(shared, query) {
            Ok(text) => request.respond(
                Response::from_string(text).with_header(content_type("text/plain; charset=utf-8")),
            ),
            Err(e) => request.respond(error_response(&e)),
        },
        "/api/import" => {
            let reply = read_body(&mut request).and_then(|body| import(shared, query, &body));
            request.respond(reply_response(reply))
        }
        _ => request.respond(reply_response(answer(shared, path, query))),
    }
}

/// A request's body as text: at most [`MAX_BODY`] bytes (413 past that), UTF-8 (400 if not).
fn read_body(request: &mut Request) -> Result<String, ApiError> {
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ApiError::bad(format!("reading the body: {e}")))?;
    if bytes.len() as u64 > MAX_BODY {
        return Err(ApiError {
            status: 413,
            message: format!("the body is over {} MiB", MAX_BODY >> 20),
        });
    }
    String::from_utf8(bytes).map_err(|e| ApiError::bad(format!("the body is not UTF-8: {e}")))
}

/// A 405 reply: `method` is not answered on `path`, which answers `allow`.
fn not_allowed(method: &Method, path: &str, allow: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    error_response(&ApiError {
        status: 405,
        message: format!("{method} is not allowed on {path} (only {allow})"),
    })
    .with_header(Header::from_bytes("Allow", allow).expect("a valid header"))
}

/// Counts a search in [`Shared::running`] while it lives.
struct Running<'a>(&'a Mutex<usize>);

impl<'a> Running<'a> {
    fn new(running: &'a Mutex<usize>) -> Running<'a> {
        *running.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        Running(running)
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) -= 1;
    }
}

fn error_response(e: &ApiError) -> Response<std::io::Cursor<Vec<u8>>> {
    json_response(e.status, &json!({"error": e.message}))
}

fn reply_response(reply: ApiResult) -> Response<std::io::Cursor<Vec<u8>>> {
    match reply {
        Ok(body) => json_response(200, &body),
        Err(e) => error_response(&e),
    }
}

/// The JSON endpoints answered at once.
fn answer(shared: &Shared, path: &str, query: &Query) -> ApiResult {
    if path == "/api/info" {
        return Ok(info(shared));
    }
    let variant = api::variant_of(query)?;
    api::visit(
        variant,
        Endpoint {
            shared,
            variant,
            path,
            query,
        },
    )
}

/// `GET /api/info`: the engine, its variants and their tables.
fn info(shared: &Shared) -> Value {
    struct Tables<'a>(&'a Shared, Variant);
    impl WebVisit for Tables<'_> {
        type Output = Value;
        fn visit<G: WebGame>(self, _rules: G::Rules) -> Value {
            let slot = self.0.games.slot::<G>(self.1);
            let (tables, note) = slot.tables();
            json!({"name": self.1.name(), "game": G::NAME, "players": G::PLAYER_NAMES,
                   "tables": tables.is_some(), "note": note})
        }
    }
    let variants: Vec<Value> = Variant::ALL
        .iter()
        .map(|&v| api::visit(v, Tables(shared, v)))
        .collect();
    let running = *shared
        .running
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    json!({
        "engine": format!("perfectplay {}", env!("CARGO_PKG_VERSION")),
        "variants": variants,
        "searches": running,
    })
}

/// One JSON endpoint on the game of the request's variant.
struct Endpoint<'a> {
    shared: &'a Shared,
    variant: Variant,
    path: &'a str,
    query: &'a Query,
}

impl WebVisit for Endpoint<'_> {
    type Output = ApiResult;
    fn visit<G: WebGame>(self, _rules: G::Rules) -> ApiResult {
        let slot = self.shared.games.slot::<G>(self.variant);
        let game = api::game_of::<G>(self.query, &slot.settings().rules)?;
        match self.path {
            "/api/state" => Ok(api::state(&game)),
            "/api/probe" => Ok(api::probe(&slot, &game)),
            "/api/review" => Ok(api::review(&slot, &game)),
            "/api/bestmove" => {
                let params = api::search_params(self.query, Some(DEFAULT_MOVETIME_MS))?;
                let cap = self.shared.max_movetime;
                if params.movetime().is_some_and(|t| t > cap) {
                    return Err(ApiError::bad(format!(
                        "movetime: at most {} ms here (the server's --max-movetime)",
                        cap.as_millis()
                    )));
                }
                let (tx, rx) = mpsc::channel();
                let control = Arc::new(Control::new(false));
                let _running = Running::new(&self.shared.running);
                // A watchdog stops the search at the cap; it wakes and leaves as soon as the
                // search ends (its channel closes).
                let (done, ended) = mpsc::channel::<()>();
                let watched = Arc::clone(&control);
                let watchdog = thread::spawn(move || {
                    if ended.recv_timeout(cap) == Err(RecvTimeoutError::Timeout) {
                        watched.stop();
                    }
                });
                api::search(
                    &slot,
                    &game,
                    &params,
                    self.shared.hash_mb,
                    self.shared.threads,
                    &control,
                    &tx,
                );
                drop(done);
                let _ = watchdog.join();
                drop(tx);
                rx.iter()
                    .find_map(|e| match e {
                        SearchEvent::Best(best) => Some(best),
                        _ => None,
                    })
                    .ok_or_else(|| ApiError {
                        status: 500,
                        message: "the search ended without a move".into(),
                    })
            }
            other => Err(ApiError {
                status: 404,
                message: format!("no endpoint {other}"),
            }),
        }
    }
}

/// `GET /api/record`: the game as a record (OGN or PGN).
fn record_text(shared: &Shared, query: &Query) -> Result<String, ApiError> {
    struct Record<'a>(&'a Shared, Variant, &'a Query);
    impl WebVisit for Record<'_> {
        type Output = Result<String, ApiError>;
        fn visit<G: WebGame>(self, _rules: G::Rules) -> Result<String, ApiError> {
            let slot = self.0.games.slot::<G>(self.1);
            let game = api::game_of::<G>(self.2, &slot.settings().rules)?;
            Ok(api::record(&game, self.2))
        }
    }
    let variant = api::variant_of(query)?;
    api::visit(variant, Record(shared, variant, query))
}

/// `POST /api/import?variant=V`: the records of the body.
fn import(shared: &Shared, query: &Query, body: &str) -> ApiResult {
    struct Import<'a>(&'a Shared, Variant, &'a str);
    impl WebVisit for Import<'_> {
        type Output = ApiResult;
        fn visit<G: WebGame>(self, _rules: G::Rules) -> ApiResult {
            let slot = self.0.games.slot::<G>(self.1);
            api::import::<G>(self.2, &slot.settings().rules)
        }
    }
    let variant = api::variant_of(query)?;
    api::visit(variant, Import(shared, variant, body))
}

/// Starts the search an analysis request asks for on a thread of its own; returns its events.
struct StartSearch<'a> {
    shared: &'a Shared,
    variant: Variant,
    query: &'a Query,
    control: Arc<Control>,
}

impl WebVisit for StartSearch<'_> {
    type Output = Result<mpsc::Receiver<SearchEvent>, ApiError>;
    fn visit<G: WebGame>(self, _rules: G::Rules) -> Self::Output {
        let slot = self.shared.games.slot::<G>(self.variant);
        let game = api::game_of::<G>(self.query, &slot.settings().rules)?;
        let params = api::search_params(self.query, None)?;
        let (tx, rx) = mpsc::channel();
        let (hash_mb, threads) = (self.shared.hash_mb, self.shared.threads);
        let control = self.control;
        thread::spawn(move || {
            api::search(&slot, &game, &params, hash_mb, threads, &control, &tx);
        });
        Ok(rx)
    }
}

/// `GET /api/analysis`: the search's lines as Server-Sent Events (`info`, `note`, then one
/// `bestmove`), with a `tick` (the time and nodes searched) whenever [`HEARTBEAT`] passes without one; the search stops when the
/// stream cannot be written (the page went away) or the same `page` starts another search.
fn stream_analysis(shared: &Shared, request: Request, query: &Query) {
    let control = Arc::new(Control::new(false));
    let started = api::variant_of(query).and_then(|variant| {
        api::visit(
            variant,
            StartSearch {
                shared,
                variant,
                query,
                control: Arc::clone(&control),
            },
        )
    });
    let events = match started {
        Ok(events) => events,
        Err(e) => {
            let _ = request.respond(error_response(&e));
            return;
        }
    };
    let page = query.get("page").map(str::to_string);
    if let Some(page) = &page {
        let mut searches = shared
            .searches
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(old) = searches.insert(page.clone(), Arc::clone(&control)) {
            old.stop();
        }
    }
    let running = Running::new(&shared.running);
    let mut writer = request.into_writer();
    let _ = write_events(&mut *writer, &events, &control);
    // Whatever ended the stream, the search stops, and its events are drained until it has.
    control.stop();
    for _ in events.iter() {}
    drop(running);
    if let Some(page) = page {
        let mut searches = shared
            .searches
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if searches
            .get(&page)
            .is_some_and(|c| Arc::ptr_eq(c, &control))
        {
            searches.remove(&page);
        }
    }
}

/// Writes the stream's head and its events until the `bestmove` event, the search's end, or a
/// failed write. The body is chunked (HTTP/1.1), each event a chunk written at once, so that
/// the client knows where the stream ends while the connection stays open for its next request.
fn write_events(
    out: &mut dyn Write,
    events: &mpsc::Receiver<SearchEvent>,
    control: &Control,
) -> std::io::Result<()> {
    out.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\
          Transfer-Encoding: chunked\r\n\r\n",
    )?;
    out.flush()?;
    let mut chunk = |text: &str| -> std::io::Result<()> {
        write!(out, "{:x}\r\n{text}\r\n", text.len())?;
        out.flush()
    };
    loop {
        let event = match events.recv_timeout(HEARTBEAT) {
            Ok(event) => event,
            Err(RecvTimeoutError::Timeout) => {
                let ms = control.elapsed().as_millis() as u64;
                let nodes = control.nodes();
                let tick = json!({"time": ms, "nodes": nodes, "nps": nodes * 1000 / ms.max(1)});
                chunk(&format!("event: tick\ndata: {tick}\n\n"))?;
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => break,
        };
        let (name, data, last) = match event {
            SearchEvent::Info(v) => ("info", v, false),
            SearchEvent::Note(text) => ("note", json!({ "text": text }), false),
            SearchEvent::Best(v) => ("bestmove", v, true),
        };
        chunk(&format!("event: {name}\ndata: {data}\n\n"))?;
        if last {
            break;
        }
    }
    // The last chunk: the body ends.
    out.write_all(b"0\r\n\r\n")?;
    out.flush()
}

/// Runs `perfectplay serve`.
pub fn main(args: ServeArgs) -> anyhow::Result<()> {
    run(args, &mut std::io::stdout().lock())
}
