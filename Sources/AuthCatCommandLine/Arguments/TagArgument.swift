import ArgumentParser
import AuthCatEssentials

/// `--tag` and `--untag` values. A blank one (`--tag ''`) names no tag: it
/// is refused as a usage error rather than dropped, so that `add`, `edit`
/// and `list` never quietly do less than the command line asked.
enum TagArgument {
    static func validate(_ tags: [String], option: String) throws {
        guard tags.contains(where: { Account.normalizedTags([$0]).isEmpty }) else { return }
        throw ValidationError("\(option) takes a tag, not a blank value")
    }
}
