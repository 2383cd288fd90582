//! Energy estimates from a power model: joules per operation = measured time x assumed power.
//! These are estimates from a model, not measurements of energy, and the report says so.

/// A power model: a constant power draw while an operation runs, with where the figure comes
/// from, and a battery to count operations against.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PowerModel {
    /// A short name.
    pub name: String,
    /// The assumed power draw in watts.
    pub watts: f64,
    /// Where the figure comes from.
    pub source: String,
    /// The battery's energy in joules (for operations per battery).
    pub battery_joules: f64,
    /// What the battery is.
    pub battery: String,
}

/// A 2000 mAh, 3.7 V lithium-ion cell: 7.4 Wh.
const CELL_J: f64 = 2.0 * 3.7 * 3600.0;
const CELL: &str = "one 2000 mAh 3.7 V Li-ion cell (7.4 Wh = 26640 J)";

/// The named profiles: (name, watts, source).
pub const PROFILES: &[(&str, f64, &str)] = &[
    (
        "cortex-m4-168mhz",
        3.3 * 0.032,
        "a Cortex-M4 board at 168 MHz drawing 3.3 V x 32 mA (the figure the pqlab compare issue \
         gives; STM32F4-class run current); applied to this machine's times it shows the \
         arithmetic of the model, not an M4 measurement",
    ),
    (
        "laptop-15w",
        15.0,
        "a 15 W laptop processor package (a typical TDP rating, not a measurement)",
    ),
    (
        "server-core-10w",
        10.0,
        "one server core at about 10 W (package power divided by cores; an assumption)",
    ),
];

impl PowerModel {
    /// The named profile.
    pub fn profile(name: &str) -> Option<PowerModel> {
        PROFILES
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|&(n, w, s)| PowerModel {
                name: n.to_string(),
                watts: w,
                source: s.to_string(),
                battery_joules: CELL_J,
                battery: CELL.to_string(),
            })
    }

    /// A model of `watts` given on the command line.
    pub fn watts(watts: f64) -> PowerModel {
        PowerModel {
            name: format!("{watts} W"),
            watts,
            source: "given on the command line (--power-watts)".to_string(),
            battery_joules: CELL_J,
            battery: CELL.to_string(),
        }
    }

    /// Joules for an operation of `ns` nanoseconds.
    pub fn joules(&self, ns: f64) -> f64 {
        self.watts * ns * 1e-9
    }

    /// How many operations of `ns` nanoseconds the battery powers.
    pub fn ops_per_battery(&self, ns: f64) -> f64 {
        let j = self.joules(ns);
        if j > 0.0 {
            self.battery_joules / j
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_m4_profile_is_3v3_times_32ma() {
        let m = PowerModel::profile("cortex-m4-168mhz").unwrap();
        assert!((m.watts - 0.1056).abs() < 1e-12);
        // 1 ms at 0.1056 W is 105.6 uJ; the cell powers 26640 / 1.056e-4 operations.
        assert!((m.joules(1e6) - 1.056e-4).abs() < 1e-12);
        assert!((m.ops_per_battery(1e6) - 26640.0 / 1.056e-4).abs() < 1.0);
        assert!(PowerModel::profile("nope").is_none());
    }
}
