# bash completion for lanemap-cli. Specs are completed from the catalog of the installed program
# (`lanemap-cli list`), so a new variant needs no edit here; a new subcommand or option does (a test checks).
_lanemap_cli_specs() {
    lanemap-cli list 2>/dev/null | cut -f1
}

_lanemap_cli() {
    local cur prev words cword
    _init_completion || return

    local commands="list show export probe discover banks where what feeds diff decode identify check conform"
    local command="" i
    for ((i = 1; i < cword; i++)); do
        case "${words[i]}" in
            list|show|export|probe|discover|banks|where|what|feeds|diff|decode|identify|check|conform) command=${words[i]}; break ;;
        esac
    done

    case "$prev" in
        --family) COMPREPLY=($(compgen -W "mma mma.sp wgmma wgmma.sp wmma ldmatrix stmatrix movmatrix" -- "$cur")); return ;;
        --format)
            if [[ "$command" == banks ]]; then
                COMPREPLY=($(compgen -W "text json svg" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "json txt svg html cuda cute triton csv md tex" -- "$cur"))
            fi
            return ;;
        --operand) COMPREPLY=($(compgen -W "A B C D metadata" -- "$cur")); return ;;
        --copy) COMPREPLY=($(compgen -W "direct ldmatrix ld.shared" -- "$cur")); return ;;
        --selector) COMPREPLY=($(compgen -W "0 1 2 3" -- "$cur")); return ;;
        --major|--inner) COMPREPLY=($(compgen -W "K MN" -- "$cur")); return ;;
        --swizzle) COMPREPLY=($(compgen -W "none 32B 64B 128B" -- "$cur")); return ;;
        --element-bits) COMPREPLY=($(compgen -W "8 16 32 64" -- "$cur")); return ;;
        --color) COMPREPLY=($(compgen -W "lane register group warp warpgroup" -- "$cur")); return ;;
        --palette) COMPREPLY=($(compgen -W "default colorblind" -- "$cur")); return ;;
        -o|--output|--expect|--validate) _filedir; return ;;
        --json) [[ "$command" == probe || "$command" == discover ]] && _filedir; return ;;
        --kind) COMPREPLY=($(compgen -W "f16 tf32 f8f6f4 i8 mxf8f6f4 mxf4 mxf4nvf4" -- "$cur")); return ;;
        --cta-group) COMPREPLY=($(compgen -W "1 2" -- "$cur")); return ;;
        --scale-vec) COMPREPLY=($(compgen -W "1X 2X 4X block32 block16" -- "$cur")); return ;;
        --sfa-id|--sfb-id) COMPREPLY=($(compgen -W "0 1 2 3" -- "$cur")); return ;;
        --sm|--lanes|--smem|--target|--lane|--thread|--register|--feeds|--smem-desc|--idesc|--smem-desc-from|--idesc-from|--ld|--st|--imm-half-splitoff|--shape|--against|--atom-layout|--permutation|--into) return ;;
    esac

    if [[ -z "$command" ]]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    local options
    case "$command" in
        list) options="--family --sm --help" ;;
        show) options="--operand --selector --major --swizzle --smem --target --ld --st --imm-half-splitoff --scale-vec --sfa-id --sfb-id --shape --element-bits --format -o --output --atom-layout --permutation --help" ;;
        export) options="--all --format --operand --selector --major --swizzle --smem -o --output --color --palette --lanes --gzip --compact --ld --st --imm-half-splitoff --scale-vec --sfa-id --sfb-id --atom-layout --permutation --help" ;;
        probe) options="--all --json --family --timing --atom-layout --permutation --copy --smem --help" ;;
        discover) options="--family --json --expect --validate --help" ;;
        banks) options="--smem --search --feeds --json --format -o --output --atom-layout --permutation --help" ;;
        where) options="--json --atom-layout --permutation --help" ;;
        what) options="--lane --thread --cta --register --json --atom-layout --permutation --help" ;;
        feeds) options="--selector --json --into --major --swizzle --inner --smem --help" ;;
        diff) options="--operand --json --help" ;;
        identify) options="--shape --operand --element-bits --help" ;;
        check) options="--shape --operand --element-bits --against --atom-layout --permutation --major --swizzle --help" ;;
        conform) options="--help" ;;
        decode) options="--smem-desc --idesc --kind --smem-desc-from --idesc-from --cta-group --ws --no-ws --json --help" ;;
    esac
    if [[ "$command" == conform && "$cur" != -* ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
        return
    fi
    if [[ "$cur" == -* || "$command" == list || "$command" == decode || "$command" == identify || "$command" == check ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    elif [[ "$command" == banks ]]; then
        # banks also takes the plain shared-memory loads of a tiled copy (no catalog entries).
        COMPREPLY=($(compgen -W "ld.shared.b32 ld.shared.v2.b32 ld.shared.v4.b32 $(_lanemap_cli_specs)" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$(_lanemap_cli_specs)" -- "$cur"))
    fi
}
complete -F _lanemap_cli lanemap-cli
