//! The server against hostile clients, over raw sockets: lying and oversized lengths, heads
//! too large, bad bytes, slow and dropped clients, hundreds of requests and streams at once.
//! Each case checks the status the server answers, that it lives on, and that its memory stays
//! bounded.

use std::io::{Read, Write};
use std::thread;
use std::time::{Duration, Instant};

use crate::common::web::{read_reply, WebServer};

const SHORT: Duration = Duration::from_secs(10);

/// The most resident memory a server without tables may reach under these attacks, in KiB: two
/// searches with 16 MiB tables each, the page, and the threads' stacks, with room to spare.
const MEMORY_BOUND_KIB: u64 = 256 * 1024;

fn get(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").into_bytes()
}

fn assert_alive(server: &mut WebServer) {
    assert!(server.is_running(), "the server died");
    let reply = server.raw(&get("/api/info"), SHORT);
    assert_eq!(reply.status, 200, "{reply:?}");
}

/// Bodies whose length lies or is too large get 413 before they are read (the declared length
/// of the report, 999,999,999,999 bytes, once aborted the server), or 400.
#[test]
fn lying_and_oversized_lengths_are_refused_unread() {
    let mut server = WebServer::start(&[]);
    let head = |length: &str| {
        format!(
            "POST /api/import?variant=abapa HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n"
        )
    };
    let mut huge = head("999999999999").into_bytes();
    huge.extend_from_slice(b"abc");
    let reply = server.raw(&huge, SHORT);
    assert_eq!(reply.status, 413, "{reply:?}");
    assert!(reply.body.contains("the body is over 1 MiB"), "{reply:?}");
    // Declared one byte over: refused on the head alone, the body never sent.
    let reply = server.raw(head(&((1 << 20) + 1).to_string()).as_bytes(), SHORT);
    assert_eq!(reply.status, 413, "{reply:?}");
    let reply = server.raw(head("twelve").as_bytes(), SHORT);
    assert_eq!(reply.status, 400, "{reply:?}");
    // A chunked body with no length runs past 1 MiB as it is read.
    let mut stream = server.connect(SHORT);
    stream
        .write_all(
            b"POST /api/import?variant=abapa HTTP/1.1\r\nHost: x\r\n\
              Transfer-Encoding: chunked\r\n\r\n",
        )
        .unwrap();
    let chunk = format!("{:x}\r\n{}\r\n", 64 * 1024, " ".repeat(64 * 1024));
    for _ in 0..17 {
        if stream.write_all(chunk.as_bytes()).is_err() {
            break;
        }
    }
    let reply = read_reply(&mut stream);
    assert_eq!(reply.status, 413, "{reply:?}");
    // Fewer bytes than declared, then the client leaves.
    let mut short = head("100").into_bytes();
    short.extend_from_slice(b"[Variant");
    drop(server.connect(SHORT).write_all(&short));
    let (_, peak) = server.memory_kib();
    assert!(peak < MEMORY_BOUND_KIB, "peak {peak} KiB");
    assert_alive(&mut server);
}

/// A body of a hundred thousand tiny records (under 1 MiB) is refused at 1,000 games instead
/// of answered with each record's tags and moves again (it took the server past 1 GiB with
/// four at once); a thousand are answered.
#[test]
fn many_tiny_records_are_refused_past_a_thousand() {
    let mut server = WebServer::start(&[]);
    let body = "[a \"\"]\n*\n".repeat(100_000);
    assert!(body.len() < 1 << 20);
    let (status, reply) = server.post("api/import?variant=dobutsu", &body);
    assert_eq!(status, 400, "{reply}");
    assert_eq!(
        reply["error"],
        "record: 100000 games in the text; at most 1000 at a time"
    );
    let (status, reply) = server.post("api/import?variant=dobutsu", &"[a \"\"]\n*\n".repeat(1000));
    assert_eq!(status, 200);
    assert_eq!(reply["records"].as_array().unwrap().len(), 1000);
    let (_, peak) = server.memory_kib();
    assert!(peak < MEMORY_BOUND_KIB, "peak {peak} KiB");
    assert_alive(&mut server);
}

/// A request line or headers past the head's limit get 414 or 431; bytes that are not HTTP,
/// or not UTF-8, get 400; a query that is not valid gets a JSON 400.
#[test]
fn bad_heads_and_bytes_get_4xx() {
    let mut server = WebServer::start(&[]);
    // hyper answers a request line too long with 414 or 431, depending on where its buffer
    // ends.
    let long_uri = format!("/api/state?moves={}", "A".repeat(100_000));
    let status = server.raw(&get(&long_uri), SHORT).status;
    assert!(status == 414 || status == 431, "{status}");
    // Heads of up to 32 KiB are read, none past 64 KiB.
    let header = |n: usize| {
        format!(
            "GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\nConnection: close\r\n\r\n",
            "a".repeat(n)
        )
    };
    assert_eq!(server.raw(header(32_000).as_bytes(), SHORT).status, 200);
    assert_eq!(server.raw(header(65_536).as_bytes(), SHORT).status, 431);
    assert_eq!(server.raw(header(200_000).as_bytes(), SHORT).status, 431);
    let many = format!(
        "GET / HTTP/1.1\r\nHost: x\r\n{}\r\n",
        "X-A: 1\r\n".repeat(200)
    );
    assert_eq!(server.raw(many.as_bytes(), SHORT).status, 431);
    for bytes in [
        &b"GET /\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n"[..],
        b"GARBAGE\r\n\r\n",
        b"\x00\x01\x02\x03\r\n\r\n",
        b"GET / HTTP/9.9\r\nHost: x\r\n\r\n",
    ] {
        let reply = server.raw(bytes, SHORT);
        assert!(
            reply.status == 400 || reply.status == 505,
            "{bytes:?}: {reply:?}"
        );
    }
    for (path, message) in [
        ("/api/state?variant=", "'' is not a variant"),
        ("/api/state?moves=%FF", "is not a move"),
        ("/api/state?moves=A&moves=B", "duplicate field"),
        ("/api/analysis?infinite=maybe", "infinite: 'maybe'"),
    ] {
        let reply = server.raw(&get(path), SHORT);
        assert_eq!(reply.status, 400, "{path}: {reply:?}");
        assert!(reply.body.contains(message), "{path}: {reply:?}");
    }
    assert_alive(&mut server);
}

/// A client that sends half a head, or half a body, is dropped (the body with 408) while the
/// server answers everyone else; a client that connects and sends nothing, too.
#[test]
fn slow_clients_are_dropped_and_others_served() {
    let mut server = WebServer::start(&[]);
    let started = Instant::now();
    let mut half_head = server.connect(Duration::from_secs(30));
    half_head
        .write_all(b"GET /api/info HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let mut silent = server.connect(Duration::from_secs(30));
    let mut half_body = server.connect(Duration::from_secs(30));
    half_body
        .write_all(
            b"POST /api/import?variant=abapa HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n[V",
        )
        .unwrap();
    // Meanwhile the server answers others.
    for _ in 0..20 {
        assert_eq!(server.raw(&get("/api/state"), SHORT).status, 200);
    }
    let mut rest = Vec::new();
    assert_eq!(half_head.read_to_end(&mut rest).unwrap_or(0), 0);
    assert_eq!(silent.read_to_end(&mut rest).unwrap_or(0), 0);
    let reply = read_reply(&mut half_body);
    assert_eq!(reply.status, 408, "{reply:?}");
    let waited = started.elapsed();
    assert!(waited < Duration::from_secs(25), "dropped after {waited:?}");
    assert_alive(&mut server);
}

/// Hundreds of requests at once, and clients that leave mid-request: all answered, and the
/// server's memory stays bounded.
#[test]
fn hundreds_of_requests_and_dropped_clients() {
    let mut server = WebServer::start(&[]);
    let addr = server.addr();
    let workers: Vec<_> = (0..300)
        .map(|i| {
            let addr = addr.clone();
            thread::spawn(move || {
                let mut stream = std::net::TcpStream::connect(&addr).unwrap();
                stream
                    .set_read_timeout(Some(Duration::from_secs(60)))
                    .unwrap();
                let path = if i % 2 == 0 {
                    "/api/state?variant=dobutsu&moves=b2b3"
                } else {
                    "/api/probe?variant=awari&moves=A"
                };
                stream.write_all(&get(path)).unwrap();
                if i % 10 == 0 {
                    // Leaves before the answer.
                    return 0;
                }
                read_reply(&mut stream).status
            })
        })
        .collect();
    let statuses: Vec<u16> = workers.into_iter().map(|w| w.join().unwrap()).collect();
    assert!(statuses.iter().all(|&s| s == 200 || s == 0), "{statuses:?}");
    assert_eq!(statuses.iter().filter(|&&s| s == 200).count(), 270);
    let (_, peak) = server.memory_kib();
    assert!(peak < MEMORY_BOUND_KIB, "peak {peak} KiB");
    assert_alive(&mut server);
}

/// Searches come from one pool: with one thread and a queue of one, a second stream waits (its
/// ticks say so) and a third gets 503 with `Retry-After`; when the first page goes away the
/// second starts. A hundred searches asked at once: at most the pool's run, the rest are
/// refused, and memory stays bounded.
#[test]
fn searches_are_pooled_and_refused_past_the_queue() {
    let mut server = WebServer::start(&["--searches", "1", "--queue", "1"]);
    let mut first = server.connect(SHORT);
    first
        .write_all(&get("/api/analysis?variant=abapa&infinite=true&page=a"))
        .unwrap();
    let mut status = [0u8; 12];
    first.read_exact(&mut status).unwrap();
    assert_eq!(&status, b"HTTP/1.1 200");
    let (tx, rx) = std::sync::mpsc::channel();
    let waiting = {
        let server_url = server.url.clone();
        thread::spawn(move || {
            let mut queued = Vec::new();
            let events = WebServer::events_at(
                &server_url,
                "api/analysis?variant=dobutsu&depth=4",
                |name, v| {
                    if name == "tick" {
                        queued.push(v["queued"].as_bool().unwrap());
                        if queued.len() == 4 {
                            tx.send(()).unwrap();
                        }
                    }
                    false
                },
            );
            (queued, events)
        })
    };
    rx.recv_timeout(Duration::from_secs(30)).unwrap();
    let third = server.raw(&get("/api/analysis?variant=dobutsu&depth=2"), SHORT);
    assert_eq!(third.status, 503, "{third:?}");
    assert_eq!(third.header("retry-after"), Some("1"), "{third:?}");
    assert!(third.body.contains("busy"), "{third:?}");
    let bestmove = server.raw(&get("/api/bestmove?variant=dobutsu&depth=2"), SHORT);
    assert_eq!(bestmove.status, 503, "{bestmove:?}");
    drop(first);
    let (queued, events) = waiting.join().unwrap();
    assert!(queued.iter().take(4).all(|&q| q), "{queued:?}");
    assert_eq!(events.last().unwrap().0, "bestmove", "{events:?}");
    // A hundred at once.
    let mut server2 = WebServer::start(&[]);
    let addr = server2.addr();
    let mut streams: Vec<_> = (0..100)
        .map(|i| {
            let mut s = std::net::TcpStream::connect(&addr).unwrap();
            s.set_read_timeout(Some(SHORT)).unwrap();
            let path = format!("/api/analysis?variant=abapa&infinite=true&page=p{i}");
            s.write_all(&get(&path)).unwrap();
            s
        })
        .collect();
    let mut answered = [0usize; 2];
    // Every connection stays open until all are counted: a stream closed early would free its
    // search thread for a request not yet answered.
    for s in &mut streams {
        let mut head = [0u8; 12];
        s.read_exact(&mut head).unwrap();
        match &head {
            b"HTTP/1.1 200" => answered[0] += 1,
            b"HTTP/1.1 503" => answered[1] += 1,
            other => panic!("{}", String::from_utf8_lossy(other)),
        }
    }
    let (_, info) = server2.json("api/info");
    let threads = info["search_threads"].as_u64().unwrap() as usize;
    assert!(
        info["searches"].as_u64().unwrap() as usize <= threads,
        "{info}"
    );
    // The pool's threads and its queue of 8 answer 200; the rest 503.
    assert_eq!(answered, [threads + 8, 100 - threads - 8]);
    let (_, peak) = server2.memory_kib();
    assert!(peak < MEMORY_BOUND_KIB, "peak {peak} KiB");
    drop(streams);
    assert_alive(&mut server);
    assert_alive(&mut server2);
}

/// An analysis with no limit stops by itself at the server's `--analysis-time`; one with
/// `infinite=true` runs on past it.
#[test]
fn analysis_stops_at_its_limit_unless_infinite() {
    let server = WebServer::start(&["--analysis-time", "1"]);
    let started = Instant::now();
    let events = server.events("api/analysis?variant=abapa", |_, _| false);
    assert_eq!(events.last().unwrap().0, "bestmove", "{events:?}");
    let took = started.elapsed();
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(10),
        "{took:?}"
    );
    let mut last_time = 0;
    let events = server.events("api/analysis?variant=abapa&infinite=true", |name, v| {
        if name == "tick" {
            last_time = v["time"].as_u64().unwrap();
        }
        last_time > 2500
    });
    assert_eq!(events.last().unwrap().0, "tick", "{events:?}");
}
