//! `perfectplay serve`: the board in the browser. A local HTTP server (axum over hyper) that
//! serves the page (its HTML, script and style compiled into the binary) and the JSON API the
//! page uses ([`routes`], [`api`], docs/web.md); the engine runs in this process through the
//! library.
//!
//! What a client may ask is bounded before anything is allocated for it: the request's head
//! (hyper's buffer limit, then 431 or 414), its body (the declared length checked first, 413),
//! the time to send the head or the body and to take the answer (slow clients are dropped), the
//! connections open at once, and the searches: one [`pool`] of threads for every page, with a
//! bounded queue (503 with `Retry-After` past it). Analysis is streamed as Server-Sent Events
//! with a `tick` at least every quarter second, so that a page notices a server that went away
//! and the server notices a page that did: its search stops.

mod api;
mod board;
mod pool;
mod reply;
mod routes;

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::sync::Semaphore;
use tokio_io_timeout::TimeoutStream;

use api::Games;
use pool::SearchPool;
use routes::Shared;

/// hyper's read buffer for a request's head (request line and headers): a head it cannot parse
/// within the buffer grown to about twice this gets 414 or 431 and the connection is closed, so
/// heads up to 32 KiB are read and none past 64 KiB. A game's moves ride in the query: a
/// 400-ply Dobutsu game is about 2 KiB.
const MAX_HEAD: usize = 32 * 1024;
/// How long a client may take to send a request's head, and how long a connection may stay
/// idle between requests.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a write to a client may wait (a client that stops reading is dropped, and with it
/// its search).
const WRITE_TIMEOUT: Duration = Duration::from_secs(20);
/// The most connections served at once; more wait in the listen backlog.
const MAX_CONNECTIONS: usize = 512;

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
    /// Does not build the Dobutsu Shogi solution or Oware's tablebase in the background when
    /// they are missing from their default place (they are built by default, as the
    /// protocol's AutoSolve does).
    #[arg(long)]
    no_solve: bool,
    /// Transposition table of each search, in MiB (each of the `--searches` threads has one
    /// while it searches).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    /// Threads of each search (lazy SMP).
    #[arg(long, default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=perfectplay::protocol::max_threads() as u64))]
    threads: u64,
    /// Searches that run at once, for all pages together (default: the cores); each uses
    /// `--threads` threads and a `--hash` table.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    searches: Option<u64>,
    /// Searches that may wait for a free search thread; a search asked for past them gets 503
    /// with `Retry-After`.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(0..=1024))]
    queue: u64,
    /// The longest an analysis runs when its request gives no limit, in seconds (a request
    /// with `infinite=true` runs until its page stops it or goes away).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    analysis_time: u64,
    /// The longest a `/api/bestmove` request may think, in ms: a longer `movetime` is refused,
    /// and a search limited by depth or nodes is stopped there and answers with what it found.
    #[arg(long, default_value_t = 60_000,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    max_movetime: u64,
}

/// Runs the server until the process is stopped; prints `perfectplay serve: http://ADDR/` on
/// `out` first.
///
/// # Errors
/// When the address cannot be listened on, an option is refused, or a thread cannot start.
pub fn run(args: ServeArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let games = Games::new(&args.options, !args.no_solve).map_err(anyhow::Error::msg)?;
    let searches = args.searches.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let pool = SearchPool::new(searches, args.queue as usize).context("the search threads")?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(16)
        .enable_all()
        .build()
        .context("the server's threads")?;
    let shared = Arc::new(Shared {
        games,
        pool,
        hash_mb: args.hash as usize,
        threads: args.threads as usize,
        max_movetime: Duration::from_millis(args.max_movetime),
        analysis_time: Duration::from_secs(args.analysis_time),
        pages: Default::default(),
    });
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((args.bind, args.port))
            .await
            .with_context(|| format!("listening on {}:{}", args.bind, args.port))?;
        let addr: SocketAddr = listener.local_addr().context("the server's address")?;
        let url = format!("http://{addr}/");
        writeln!(out, "perfectplay serve: {url}")?;
        out.flush()?;
        if args.open {
            if let Err(e) = open::that_detached(&url) {
                log::warn!("could not open a browser at {url}: {e}");
            }
        }
        serve(listener, routes::router(shared)).await;
        Ok(())
    })
}

/// Accepts connections for ever, each served by hyper under the limits above.
async fn serve(listener: tokio::net::TcpListener, router: axum::Router) {
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(permit) = Arc::clone(&connections).acquire_owned().await else {
            return;
        };
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors, or a connection reset before it was accepted: wait
                // a little rather than spin.
                log::debug!("accepting a connection: {e}");
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let mut io = TimeoutStream::new(stream);
        io.set_write_timeout(Some(WRITE_TIMEOUT));
        let io = TokioIo::new(Box::pin(io));
        let service = TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let served = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEAD_TIMEOUT)
                .max_buf_size(MAX_HEAD)
                .serve_connection(io, service)
                .await;
            if let Err(e) = served {
                log::debug!("serving {peer}: {e}");
            }
            drop(permit);
        });
    }
}

/// Runs `perfectplay serve`.
pub fn main(args: ServeArgs) -> anyhow::Result<()> {
    run(args, &mut std::io::stdout().lock())
}
