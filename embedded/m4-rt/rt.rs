//! The bare-metal runtime of the Cortex-M4 images (`embedded/m4-lab`, `embedded/m4-smoke`,
//! each includes this file as its `rt` module): vector table, reset (RAM initialisation, FPU,
//! switch to the process stack), fault reporting, ARM semihosting (console, command line,
//! exit) and the painted process stack. The image defines `crate::main` (entered on the
//! process stack, never returns); the layout is `link.x` here.

use core::fmt::Write;
use core::sync::atomic::{AtomicUsize, Ordering};

/// The vector table after the initial main stack pointer (which `link.x` writes): reset, then
/// the fourteen system exceptions of ARMv7-M, all of which end the run as a failure.
#[used]
#[unsafe(no_mangle)]
#[unsafe(link_section = ".vector_table")]
pub static VECTOR_TABLE: [extern "C" fn() -> !; 15] = [
    reset, fault, fault, fault, fault, fault, fault, fault, fault, fault, fault, fault, fault,
    fault, fault,
];

unsafe extern "C" {
    static mut _sdata: u32;
    static mut _edata: u32;
    static _sidata: u32;
    static mut _sbss: u32;
    static mut _ebss: u32;
    static _psp_bottom: u32;
    static _psp_top: u32;
}

/// The lowest address of the process stack (the painted window's floor).
fn psp_bottom() -> usize {
    core::ptr::addr_of!(_psp_bottom) as usize
}

/// Copies .data, zeroes .bss, enables the FPU and the configurable faults, and continues on
/// the process stack (PSP, the lower 124 KiB of RAM) in `crate::main`; faults then run on the
/// main stack, so a process-stack overflow (a bus fault below 0x20000000) can be reported.
/// Also the image's entry point (`ENTRY(reset)`).
extern "C" fn reset() -> ! {
    // SAFETY: the linker script's symbols delimit .data (RAM, with its image in flash at
    // _sidata) and .bss; nothing has used them yet; word-aligned by the script.
    unsafe {
        let mut d = core::ptr::addr_of_mut!(_sdata);
        let mut s = core::ptr::addr_of!(_sidata);
        while d < core::ptr::addr_of_mut!(_edata) {
            d.write_volatile(s.read());
            d = d.add(1);
            s = s.add(1);
        }
        let mut b = core::ptr::addr_of_mut!(_sbss);
        while b < core::ptr::addr_of_mut!(_ebss) {
            b.write_volatile(0);
            b = b.add(1);
        }
    }
    const CPACR: *mut u32 = 0xE000_ED88 as *mut u32;
    const SHCSR: *mut u32 = 0xE000_ED24 as *mut u32;
    // SAFETY: CPACR and SHCSR are always-present, word-aligned ARMv7-M system registers; the
    // process stack region is reserved by link.x; `crate::main` never returns.
    unsafe {
        CPACR.write_volatile(CPACR.read_volatile() | (0xF << 20));
        // MemManage, BusFault and UsageFault handled as themselves (not escalated).
        SHCSR.write_volatile(SHCSR.read_volatile() | (0b111 << 16));
        let top = core::ptr::addr_of!(_psp_top) as usize;
        core::arch::asm!(
            "msr psp, {top}",
            "msr control, {t}",
            "isb",
            "bl {main}",
            top = in(reg) top,
            t = in(reg) 2u32,
            main = sym crate::main,
            options(noreturn),
        );
    }
}

/// Any fault: reports the fault status and whether the process stack ran out (the stack
/// pointer at or below the floor of its region: `overflow=1`), and `window=` the stack a
/// measured call had when the fault came during one (0: during the preparation of its inputs);
/// then fails the run.
extern "C" fn fault() -> ! {
    let (psp, cfsr, bfar): (usize, u32, u32);
    // SAFETY: reads of the process stack pointer and of two fault status registers.
    unsafe {
        core::arch::asm!("mrs {}, psp", out(reg) psp, options(nomem, nostack));
        cfsr = (0xE000_ED28 as *const u32).read_volatile();
        bfar = (0xE000_ED38 as *const u32).read_volatile();
    }
    let overflow = psp <= psp_bottom() + 64
        || (bfar as usize) < psp_bottom() && (bfar as usize) >= psp_bottom() - 64 * 1024;
    let top = WINDOW_TOP.load(Ordering::Relaxed);
    let _ = writeln!(
        Console::new(),
        "fault overflow={} window={} psp={psp:#x} cfsr={cfsr:#x} bfar={bfar:#x}",
        u8::from(overflow),
        top.saturating_sub(psp_bottom())
    );
    exit(false)
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    let _ = writeln!(Console::new(), "panic {info}");
    exit(false)
}

const PATTERN: u32 = 0x5A5A_A5A5;

/// The painted window's top while a measured call runs, else 0 (for the fault report).
static WINDOW_TOP: AtomicUsize = AtomicUsize::new(0);

/// The current stack pointer.
#[inline(always)]
fn sp() -> usize {
    let sp: usize;
    // SAFETY: reads the stack pointer register.
    unsafe { core::arch::asm!("mov {}, sp", out(reg) sp, options(nomem, nostack)) };
    sp
}

/// Paints the process stack from its floor up to 64 bytes below the current stack pointer
/// with a pattern and returns that upper end (the window a call made next may use; a fault
/// while it is painted reports it).
#[inline(always)]
pub fn paint() -> usize {
    let top = (sp() - 64) & !3;
    let mut a = psp_bottom();
    while a < top {
        // SAFETY: free process stack below the live frames (link.x reserves the region).
        unsafe { (a as *mut u32).write_volatile(PATTERN) };
        a += 4;
    }
    WINDOW_TOP.store(top, Ordering::Relaxed);
    top
}

/// Bytes below `top` written since `paint` returned it (the peak stack of what ran since).
pub fn used(top: usize) -> usize {
    WINDOW_TOP.store(0, Ordering::Relaxed);
    let mut a = psp_bottom();
    // SAFETY: as in `paint`; only reads.
    while a < top && unsafe { (a as *const u32).read_volatile() } == PATTERN {
        a += 4;
    }
    top - a
}

/// The process stack free below the current frame (what a call made next may use).
#[allow(dead_code, reason = "not every image reports it")]
pub fn available() -> usize {
    ((sp() - 64) & !3) - psp_bottom()
}

/// One ARM semihosting call (`BKPT 0xAB` on M-profile).
fn semihosting(op: u32, arg: usize) -> usize {
    let ret: usize;
    // SAFETY: the debugger (QEMU) services the breakpoint; `arg` points to memory valid for `op`.
    unsafe {
        core::arch::asm!("bkpt #0xab", inout("r0") op as usize => ret, in("r1") arg,
            options(nostack, preserves_flags));
    }
    ret
}

/// `SYS_EXIT` with `ADP_Stopped_ApplicationExit` (QEMU exits 0) or `RunTimeErrorUnknown` (1).
pub fn exit(success: bool) -> ! {
    semihosting(0x18, if success { 0x2_0026 } else { 0x2_0023 });
    loop {
        core::hint::spin_loop();
    }
}

/// The command line (`SYS_GET_CMDLINE`: QEMU's `-append` text after the image name, or the
/// `-semihosting-config arg=` list) into `buf`; the bytes written.
#[allow(dead_code, reason = "not every image reads a command line")]
pub fn cmdline(buf: &mut [u8]) -> &[u8] {
    let mut block = [buf.as_mut_ptr() as usize, buf.len() - 1];
    if semihosting(0x15, block.as_mut_ptr() as usize) != 0 {
        return &[];
    }
    &buf[..block[1].min(buf.len())]
}

/// Line-buffered output through `SYS_WRITE0` (a NUL-terminated string).
pub struct Console {
    buf: [u8; 128],
    len: usize,
}

impl Console {
    pub fn new() -> Self {
        Self {
            buf: [0; 128],
            len: 0,
        }
    }

    fn flush(&mut self) {
        if self.len > 0 {
            self.buf[self.len] = 0;
            semihosting(0x04, self.buf.as_ptr() as usize);
            self.len = 0;
        }
    }
}

impl Write for Console {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for &b in s.as_bytes() {
            if self.len == self.buf.len() - 1 {
                self.flush();
            }
            self.buf[self.len] = if b == 0 { b'?' } else { b };
            self.len += 1;
            if b == b'\n' {
                self.flush();
            }
        }
        Ok(())
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        self.flush();
    }
}
