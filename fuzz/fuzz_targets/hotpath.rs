//! libFuzzer target: every public function of the core on arbitrary input.
//! A panic, an abort or a timeout (libFuzzer's `-timeout`) is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    turnsignal_fuzz::drive(data);
});
