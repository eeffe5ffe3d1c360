//! The router of `perfectplay serve`: the page's files, and each endpoint of the JSON API
//! (docs/web.md) with the methods it answers. Requests are read into [`Query`] and the body of
//! an import; errors are [`ApiError`]s, answered as `{"error": ...}` with their status. Work on
//! a game runs on tokio's blocking threads, searches on the server's [`SearchPool`].

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query as QueryParams, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::{Json, Router};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde::Serialize;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use perfectplay::engine::Note;

use super::api::{self, ApiError, Games, Query, SearchEvent};
use super::pool::{Job, SearchPool};
use super::reply::{
    BestReply, ErrorReply, ImportReply, InfoReply, NoteReply, ProbeReply, ReviewReply, StateReply,
    TickReply, VariantInfo,
};
use perfectplay::search::Control;
use perfectplay::variant::Variant;
use perfectplay::variant::{VariantGame, VisitGame};

/// The page, its script's modules, its style and icon, compiled in: each path and its type.
const ASSETS: &[(&str, &str, &str)] = {
    const HTML: &str = "text/html; charset=utf-8";
    const JS: &str = "text/javascript; charset=utf-8";
    &[
        ("/", include_str!("assets/index.html"), HTML),
        ("/index.html", include_str!("assets/index.html"), HTML),
        ("/app.js", include_str!("assets/app.js"), JS),
        ("/api.js", include_str!("assets/api.js"), JS),
        ("/board.js", include_str!("assets/board.js"), JS),
        ("/dom.js", include_str!("assets/dom.js"), JS),
        ("/engine.js", include_str!("assets/engine.js"), JS),
        ("/format.js", include_str!("assets/format.js"), JS),
        ("/game.js", include_str!("assets/game.js"), JS),
        ("/graph.js", include_str!("assets/graph.js"), JS),
        ("/play.js", include_str!("assets/play.js"), JS),
        ("/records.js", include_str!("assets/records.js"), JS),
        ("/state.js", include_str!("assets/state.js"), JS),
        ("/tree.js", include_str!("assets/tree.js"), JS),
        ("/types.js", include_str!("assets/types.js"), JS),
        (
            "/style.css",
            include_str!("assets/style.css"),
            "text/css; charset=utf-8",
        ),
        (
            "/icon.svg",
            include_str!("assets/icon.svg"),
            "image/svg+xml",
        ),
    ]
};

/// The longest request body read (a pasted record), in bytes.
const MAX_BODY: usize = 1 << 20;
/// How long a client may take to send a body.
const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// How often a stream is written to while a search finds nothing new (a `tick` event), so that
/// the page's clock moves, the page knows the server is there, and a page that went away is
/// noticed and its search stopped.
const HEARTBEAT: Duration = Duration::from_millis(250);
/// How long a `bestmove` request thinks when it gives no limit, in ms.
const DEFAULT_MOVETIME_MS: u64 = 1000;
/// What a client is told to wait before asking again when every search thread is taken.
const RETRY_AFTER_S: u64 = 1;

/// What the server shares between requests.
pub struct Shared {
    /// The games, their settings and tables.
    pub games: Games,
    /// The search threads of every page.
    pub pool: SearchPool,
    /// The transposition table of each search, in MiB.
    pub hash_mb: usize,
    /// The threads of each search.
    pub threads: usize,
    /// The longest a `/api/bestmove` search runs.
    pub max_movetime: Duration,
    /// The longest an analysis runs when its request gives no limit.
    pub analysis_time: Duration,
    /// The running analysis of each page (`page=`), to stop it when the page starts another.
    pub pages: Mutex<HashMap<String, Arc<Control>>>,
}

/// The router: every path and method the server answers.
pub fn router(shared: Arc<Shared>) -> Router {
    let page = |body: &'static str, kind: &'static str| -> MethodRouter<Arc<Shared>> {
        get(move || async move {
            (
                [
                    (header::CONTENT_TYPE, kind),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                body,
            )
        })
        .fallback(not_allowed("GET, HEAD"))
    };
    let files = ASSETS
        .iter()
        .fold(Router::new(), |router, &(path, body, kind)| {
            router.route(path, page(body, kind))
        });
    files
        .route("/api/info", get(info).fallback(not_allowed("GET, HEAD")))
        .route("/api/state", asking(Ask::State))
        .route("/api/probe", asking(Ask::Probe))
        .route("/api/review", asking(Ask::Review))
        .route(
            "/api/record",
            asking_get(Ask::Record)
                .post(record_posted)
                .fallback(not_allowed("GET, HEAD, POST")),
        )
        .route(
            "/api/bestmove",
            get(bestmove).fallback(not_allowed("GET, HEAD")),
        )
        // No HEAD on the stream: it would start a search.
        .route(
            "/api/analysis",
            get(analysis)
                .head(not_allowed("GET"))
                .fallback(not_allowed("GET")),
        )
        .route("/api/import", post(import).fallback(not_allowed("POST")))
        .fallback(not_found)
        .with_state(shared)
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut response = (
            status,
            Json(ErrorReply {
                error: &self.message,
            }),
        )
            .into_response();
        if status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_S));
        }
        response
    }
}

/// A handler answering 405 with `Allow: allow`.
fn not_allowed(
    allow: &'static str,
) -> impl Fn(Method, Uri) -> std::future::Ready<Response> + Clone + Send + Sync + 'static {
    move |method: Method, uri: Uri| {
        let error = ApiError {
            status: 405,
            message: format!("{method} is not allowed on {} (only {allow})", uri.path()),
        };
        let mut response = error.into_response();
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static(allow));
        std::future::ready(response)
    }
}

async fn not_found(uri: Uri) -> ApiError {
    let path = uri.path();
    let what = if path.starts_with("/api/") {
        "endpoint"
    } else {
        "page"
    };
    ApiError {
        status: 404,
        message: format!("no {what} {path}"),
    }
}

/// The request's query, or a 400 saying what is wrong with it.
fn query_of(query: Result<QueryParams<Query>, QueryRejection>) -> Result<Query, ApiError> {
    query
        .map(|q| q.0)
        .map_err(|e| ApiError::bad(format!("query: {}", e.body_text())))
}

/// Runs `work` on a blocking thread (it may read tables from disk).
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|e| {
        Err(ApiError {
            status: 500,
            message: format!("the request failed: {e}"),
        })
    })
}

/// `GET /api/info`: the engine, its variants and their tables, the searches.
async fn info(State(shared): State<Arc<Shared>>) -> Result<Json<InfoReply>, ApiError> {
    blocking(move || Ok(Json(info_reply(&shared)))).await
}

fn info_reply(shared: &Shared) -> InfoReply {
    struct Tables<'a>(&'a Shared, Variant);
    impl VisitGame for Tables<'_> {
        type Output = VariantInfo;
        fn visit<G: VariantGame>(self, _rules: G::Rules) -> VariantInfo {
            let slot = self.0.games.slot::<G>(self.1);
            let (tables, note) = slot.status();
            VariantInfo {
                name: self.1.name(),
                game: G::NAME,
                players: G::PLAYER_NAMES,
                tables: tables.is_some(),
                level6: level6_words(G::NAME, tables.is_some(), note.as_ref()),
                note: note.as_ref().map(api::note_text),
            }
        }
    }
    InfoReply {
        engine: format!("perfectplay {}", env!("CARGO_PKG_VERSION")),
        variants: Variant::ALL
            .iter()
            .map(|&v| v.visit(Tables(shared, v)))
            .collect(),
        searches: shared.pool.running(),
        queued: shared.pool.queued(),
        search_threads: shared.pool.threads(),
    }
}

/// What level 6 plays by now: Dobutsu's solution is perfect play, Oware's tables cover its
/// endgames only; a build running is said, so the label changes when the tables land.
fn level6_words(game: &str, loaded: bool, note: Option<&Note>) -> String {
    let building = note.is_some_and(Note::is_building);
    let what = if game == "dobutsu" {
        "solution"
    } else {
        "endgame tables"
    };
    match (game, loaded, building) {
        ("dobutsu", true, _) => "perfect (the solution)".to_string(),
        (_, true, false) => format!("search with {what}"),
        (_, true, true) => format!("search with {what}; larger tables building"),
        (_, false, true) => format!("search; {what} building"),
        (_, false, false) => "search".to_string(),
    }
}

/// What a request asks of one game, answered at once.
#[derive(Clone, Copy)]
enum Ask {
    State,
    Probe,
    Review,
    Record,
}

/// An [`Ask`]'s answer: a JSON reply, or a record's text.
enum Answer {
    State(StateReply),
    Probe(ProbeReply),
    Review(ReviewReply),
    Text(String),
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        match self {
            Answer::State(reply) => Json(reply).into_response(),
            Answer::Probe(reply) => Json(reply).into_response(),
            Answer::Review(reply) => Json(reply).into_response(),
            Answer::Text(text) => {
                ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
            }
        }
    }
}

struct AskGame<'a> {
    shared: &'a Shared,
    variant: Variant,
    query: &'a Query,
    ask: Ask,
}

impl VisitGame for AskGame<'_> {
    type Output = Result<Answer, ApiError>;
    fn visit<G: VariantGame>(self, _rules: G::Rules) -> Self::Output {
        let slot = self.shared.games.slot::<G>(self.variant);
        let game = api::game_of::<G>(self.query, &slot.settings().rules)?;
        Ok(match self.ask {
            Ask::State => {
                // A page shows this game: its tables are loaded, and their build started if
                // missing, so that they are there by the time it asks for values.
                let _ = slot.tables();
                Answer::State(api::state(&game))
            }
            Ask::Probe => Answer::Probe(api::probe(&slot, &game)),
            Ask::Review => Answer::Review(api::review(&slot, &game)),
            Ask::Record => Answer::Text(api::record(&game, self.query)?),
        })
    }
}

/// The handler of `GET /api/state`, `probe` or `review`.
fn asking(ask: Ask) -> MethodRouter<Arc<Shared>> {
    asking_get(ask).fallback(not_allowed("GET, HEAD"))
}

/// The `GET` of [`asking`], without the answer to other methods.
fn asking_get(ask: Ask) -> MethodRouter<Arc<Shared>> {
    get(
        move |State(shared): State<Arc<Shared>>,
              query: Result<QueryParams<Query>, QueryRejection>| async move {
            answer(shared, query_of(query)?, ask).await
        },
    )
}

/// `POST /api/record`: the `GET`'s parameters as a form-encoded body (`variant=...&moves=...`),
/// for a tree of side lines longer than an address may be. The body is read as an import's.
async fn record_posted(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Answer, ApiError> {
    let text = read_body(&headers, body).await?;
    let query: Query =
        serde_urlencoded::from_str(&text).map_err(|e| ApiError::bad(format!("the body: {e}")))?;
    answer(shared, query, Ask::Record).await
}

async fn answer(shared: Arc<Shared>, query: Query, ask: Ask) -> Result<Answer, ApiError> {
    let variant = api::variant_of(&query)?;
    blocking(move || {
        variant.visit(AskGame {
            shared: &shared,
            variant,
            query: &query,
            ask,
        })
    })
    .await
}

/// `POST /api/import?variant=V`: the records of the body ([`read_body`]).
async fn import(
    State(shared): State<Arc<Shared>>,
    query: Result<QueryParams<Query>, QueryRejection>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<ImportReply>, ApiError> {
    let query = query_of(query)?;
    let variant = api::variant_of(&query)?;
    let text = read_body(&headers, body).await?;
    blocking(move || {
        struct Import<'a>(&'a Shared, Variant, &'a str);
        impl VisitGame for Import<'_> {
            type Output = Result<ImportReply, ApiError>;
            fn visit<G: VariantGame>(self, _rules: G::Rules) -> Self::Output {
                let slot = self.0.games.slot::<G>(self.1);
                api::import::<G>(self.2, &slot.settings().rules)
            }
        }
        variant.visit(Import(&shared, variant, &text)).map(Json)
    })
    .await
}

/// A request's body as text. One declared longer than [`MAX_BODY`] is refused (413) before a
/// byte of it is read; one that runs past it while read, too; one that takes longer than
/// [`BODY_TIMEOUT`] gets 408, and one that is not UTF-8 400.
async fn read_body(headers: &HeaderMap, body: Body) -> Result<String, ApiError> {
    let too_large = || ApiError {
        status: 413,
        message: format!("the body is over {} MiB", MAX_BODY >> 20),
    };
    if let Some(length) = headers.get(header::CONTENT_LENGTH) {
        let length = length
            .to_str()
            .ok()
            .and_then(|l| l.parse::<u64>().ok())
            .ok_or_else(|| ApiError::bad("Content-Length is not a number"))?;
        if length > MAX_BODY as u64 {
            return Err(too_large());
        }
    }
    let read = tokio::time::timeout(BODY_TIMEOUT, Limited::new(body, MAX_BODY).collect()).await;
    let bytes: Bytes = match read {
        Err(_) => {
            return Err(ApiError {
                status: 408,
                message: format!("the body took over {} s", BODY_TIMEOUT.as_secs()),
            })
        }
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => return Err(too_large()),
        Ok(Err(e)) => return Err(ApiError::bad(format!("reading the body: {e}"))),
        Ok(Ok(collected)) => collected.to_bytes(),
    };
    String::from_utf8(bytes.to_vec())
        .map_err(|e| ApiError::bad(format!("the body is not UTF-8: {e}")))
}

/// Stops a search when dropped: the request or stream that waits for it went away, or ended.
struct StopOnDrop(Arc<Control>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// The search a request asks for, made into a job for the pool: it sends its events to `tx`,
/// and says it has started in `started`.
struct PrepareSearch<'a> {
    shared: &'a Shared,
    variant: Variant,
    query: &'a Query,
    default_movetime: Option<u64>,
    control: Arc<Control>,
    started: Arc<AtomicBool>,
    tx: UnboundedSender<SearchEvent>,
}

/// A prepared search: the job, and whether the request gave it no limit of its own (nor asked
/// for an endless one).
struct Prepared {
    job: Job,
    no_limit_given: bool,
}

impl VisitGame for PrepareSearch<'_> {
    type Output = Result<Prepared, ApiError>;
    fn visit<G: VariantGame>(self, _rules: G::Rules) -> Self::Output {
        let slot = self.shared.games.slot::<G>(self.variant);
        let game = api::game_of::<G>(self.query, &slot.settings().rules)?;
        let params = api::search_params(self.query, self.default_movetime)?;
        let (hash_mb, threads) = (self.shared.hash_mb, self.shared.threads);
        let (control, started, tx) = (self.control, self.started, self.tx);
        let no_limit_given = params.no_limit_given();
        let job: Job = Box::new(move || {
            // A page that went away while its search waited leaves nothing to do.
            if control.is_stopped() {
                return;
            }
            // The search's time counts from here, not from the wait in the queue.
            control.restart_clock();
            started.store(true, Ordering::Relaxed);
            api::search(&slot, &game, &params, hash_mb, threads, &control, &tx);
            // Ends the watch on the stream's time limit, if any.
            control.stop();
        });
        Ok(Prepared {
            job,
            no_limit_given,
        })
    }
}

/// A search on the pool: its control, its events, and whether it has started.
struct Running {
    control: Arc<Control>,
    started: Arc<AtomicBool>,
    events: UnboundedReceiver<SearchEvent>,
    no_limit_given: bool,
}

/// Prepares the search `query` asks for and queues it; 400 for a bad request, 503 when the
/// pool is full.
fn start_search(
    shared: &Shared,
    query: &Query,
    default_movetime: Option<u64>,
) -> Result<Running, ApiError> {
    let variant = api::variant_of(query)?;
    let control = Arc::new(Control::new(false));
    let started = Arc::new(AtomicBool::new(false));
    let (tx, events) = unbounded_channel();
    let prepared = variant.visit(PrepareSearch {
        shared,
        variant,
        query,
        default_movetime,
        control: Arc::clone(&control),
        started: Arc::clone(&started),
        tx,
    })?;
    shared.pool.submit(prepared.job).map_err(|_| ApiError {
        status: 503,
        message: format!(
            "every search thread is busy ({} running, {} waiting): try again shortly",
            shared.pool.running(),
            shared.pool.queued()
        ),
    })?;
    Ok(Running {
        control,
        started,
        events,
        no_limit_given: prepared.no_limit_given,
    })
}

/// `GET /api/bestmove`: the move a search finds, within the server's `--max-movetime`; the
/// search stops if the client goes away first.
async fn bestmove(
    State(shared): State<Arc<Shared>>,
    query: Result<QueryParams<Query>, QueryRejection>,
) -> Result<Json<BestReply>, ApiError> {
    let query = query_of(query)?;
    if query.infinite.as_deref() == Some("true") {
        return Err(ApiError::bad(
            "infinite: a best move needs a limit (infinite is for /api/analysis)",
        ));
    }
    let cap = shared.max_movetime;
    // Refused before the search takes a place in the pool.
    let asked = query
        .movetime
        .as_deref()
        .and_then(|t| t.parse::<u64>().ok());
    if asked.is_some_and(|ms| u128::from(ms) > cap.as_millis()) {
        return Err(ApiError::bad(format!(
            "movetime: at most {} ms here (the server's --max-movetime)",
            cap.as_millis()
        )));
    }
    let started = {
        let shared = Arc::clone(&shared);
        blocking(move || start_search(&shared, &query, Some(DEFAULT_MOVETIME_MS))).await?
    };
    let mut events = started.events;
    let _stop = StopOnDrop(Arc::clone(&started.control));
    let deadline = tokio::time::sleep(cap);
    tokio::pin!(deadline);
    let mut capped = false;
    loop {
        tokio::select! {
            event = events.recv() => match event {
                Some(SearchEvent::Best(best)) => return Ok(Json(best)),
                Some(_) => {}
                None => return Err(ApiError {
                    status: 500,
                    message: "the search ended without a move".into(),
                }),
            },
            () = &mut deadline, if !capped => {
                capped = true;
                started.control.stop();
            }
        }
    }
}

/// An analysis stream's state between two events.
struct Stream {
    search: Running,
    /// When the search stops by itself, counted from its start (none: it runs until stopped).
    limit: Option<Duration>,
    done: bool,
    _page: PageEntry,
    _stop: StopOnDrop,
}

/// A page's entry in [`Shared::pages`] while its stream lives.
struct PageEntry {
    shared: Arc<Shared>,
    page: Option<String>,
    control: Arc<Control>,
}

impl PageEntry {
    /// Registers `control` as `page`'s search, stopping the page's last one.
    fn new(shared: Arc<Shared>, page: Option<String>, control: Arc<Control>) -> PageEntry {
        if let Some(page) = &page {
            let mut pages = shared.pages.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(old) = pages.insert(page.clone(), Arc::clone(&control)) {
                old.stop();
            }
        }
        PageEntry {
            shared,
            page,
            control,
        }
    }
}

impl Drop for PageEntry {
    fn drop(&mut self) {
        if let Some(page) = &self.page {
            let mut pages = self
                .shared
                .pages
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if pages
                .get(page)
                .is_some_and(|c| Arc::ptr_eq(c, &self.control))
            {
                pages.remove(page);
            }
        }
    }
}

/// `GET /api/analysis`: the search's lines as Server-Sent Events (`info`, `note`, then one
/// `bestmove`), with a `tick` (time, nodes, whether it still waits for a thread) whenever
/// [`HEARTBEAT`] passes without an event. With no limit in the request it stops after the
/// server's `--analysis-time`; with `infinite=true`, only when its page goes away or starts
/// another.
async fn analysis(
    State(shared): State<Arc<Shared>>,
    query: Result<QueryParams<Query>, QueryRejection>,
) -> Result<Response, ApiError> {
    let query = query_of(query)?;
    let page = query.page.clone();
    let search = {
        let shared = Arc::clone(&shared);
        blocking(move || start_search(&shared, &query, None)).await?
    };
    let limit = search.no_limit_given.then_some(shared.analysis_time);
    let control = Arc::clone(&search.control);
    let stream = Stream {
        _page: PageEntry::new(shared, page, Arc::clone(&control)),
        _stop: StopOnDrop(control),
        search,
        limit,
        done: false,
    };
    let events = futures_util::stream::unfold(stream, next_event);
    Ok(Sse::new(events).into_response())
}

/// The next event of an analysis stream: the search's next, or a `tick` when none came for a
/// [`HEARTBEAT`]; nothing after the `bestmove`.
async fn next_event(mut stream: Stream) -> Option<(Result<Event, Infallible>, Stream)> {
    if stream.done {
        return None;
    }
    let received = tokio::select! {
        event = stream.search.events.recv() => Some(event),
        () = tokio::time::sleep(HEARTBEAT) => None,
    };
    let control = &stream.search.control;
    let started = stream.search.started.load(Ordering::Relaxed);
    if started && stream.limit.is_some_and(|limit| control.elapsed() >= limit) {
        control.stop();
    }
    let event = match received {
        None => {
            let (ms, nodes) = if started {
                (control.elapsed().as_millis() as u64, control.nodes())
            } else {
                (0, 0)
            };
            let tick = TickReply {
                time: ms,
                nodes,
                nps: nodes * 1000 / ms.max(1),
                queued: !started,
            };
            event("tick", &tick)
        }
        // The search was dropped before it started (its page went away or replaced it).
        Some(None) => return None,
        Some(Some(SearchEvent::Info(line))) => event("info", &line),
        Some(Some(SearchEvent::Note(text))) => event("note", &NoteReply { text }),
        Some(Some(SearchEvent::Best(best))) => {
            stream.done = true;
            event("bestmove", &best)
        }
    };
    Some((Ok(event), stream))
}

/// A Server-Sent Event named `name` whose data is `reply`'s JSON.
fn event(name: &str, reply: &impl Serialize) -> Event {
    // The replies are plain structs of strings and numbers: they always serialize.
    let data = serde_json::to_string(reply).unwrap_or_default();
    Event::default().event(name).data(data)
}
