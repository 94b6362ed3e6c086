//! What one live game costs the server in memory, counted by the allocator rather than read off
//! the process's RSS: the game as the server keeps it (a headless copy of the game, its log, the
//! narration dropped after each order as the server drops it) and its hub channel holding the
//! last events for slow followers, from its start through a whole game played by the computer on
//! both sides. Each shipped scenario but the grand one, or those named.
//!
//! ```sh
//! cargo bench --no-default-features --bench online_memory [-- mortain-1944 st-vith-1944]
//! ```

use hexfront::ai::{ComputerPlayer, Profile, side_to_act};
use hexfront::game::components::Sides;
use hexfront::game::execute::execute;
use hexfront::game::log::OrderLog;
use hexfront::game::order::IssuedOrder;
use hexfront::net::hub::{Committed, Hub};
use hexfront::net::live::forget_narration;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

/// Counts the bytes allocated and not yet freed.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn live() -> isize {
    LIVE.load(Ordering::Relaxed)
}

fn kib(bytes: isize) -> String {
    format!("{:.0} KiB", bytes as f64 / 1024.0)
}

/// One whole game, its events kept by a channel or not (`channel`): (bytes when built, bytes at
/// the end, entries, bytes at most on the way).
fn measure(name: &str, channel: bool) -> (isize, isize, usize, isize) {
    let (_, scenario) = hexfront::net::lobby::shipped(name).unwrap();
    let before = live();
    let hub = Hub::default();
    // A follower that never reads: the channel keeps as many events as it may.
    let _slow = hub.subscribe("g");
    let mut app = hexfront::game::headless_app(&scenario, 7);
    forget_narration(app.world_mut());
    let built = live() - before;
    let sides = app.world().resource::<Sides>().0.len();
    let mut players: Vec<ComputerPlayer> = (0..sides)
        .map(|s| ComputerPlayer::new(s, Profile::standard(), 11 + s as u64))
        .collect();
    let mut most = built;
    for _ in 0..20_000 {
        let world = app.world_mut();
        let Some(side) = side_to_act(world) else { break };
        let Some(order) = players[side].next_order(world) else {
            break;
        };
        let id = world.resource::<Sides>().0[side].id.clone();
        let Ok(index) = execute(world, IssuedOrder::new(id, order)) else {
            break;
        };
        forget_narration(world);
        let entry = world.resource::<OrderLog>().entries[index].clone();
        let committed = Committed {
            index,
            entry,
            reveals: Vec::new(),
            ended: None,
            at: 0,
            turn: 0,
        };
        if channel {
            hub.publish("g", hexfront::net::hub::Event::Entry(Box::new(committed)));
        }
        most = most.max(live() - before);
    }
    let entries = app.world().resource::<OrderLog>().entries.len();
    let end = live() - before;
    (built, end, entries, most)
}

fn main() {
    let named: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let scenarios: Vec<String> = if named.is_empty() {
        hexfront::scenario::SHIPPED
            .iter()
            .filter_map(|(p, _)| Some(p.strip_prefix("scenarios/")?.strip_suffix(".ron")?.to_string()))
            .filter(|n| !n.contains("barbarossa"))
            .collect()
    } else {
        named
    };
    println!("| scenario | entries | built | at the end | most | per entry | of which the channel |");
    println!("|---|---|---|---|---|---|---|");
    for name in scenarios {
        let (built, end, entries, most) = measure(&name, true);
        let (_, end_alone, _, _) = measure(&name, false);
        let per = (end - built) / entries.max(1) as isize;
        let channel = (end - end_alone) / entries.max(1) as isize;
        println!(
            "| {name} | {entries} | {} | {} | {} | {per} B | {channel} B |",
            kib(built),
            kib(end),
            kib(most),
        );
    }
}
