import type { DbClient } from "@/lib/db/db-types";
import { listVotesOfEither } from "@/lib/db/vote-casters";
import { AppError } from "@/lib/errors";

/**
 * Whose vote one cast is (`voterId`) and who cast it (`castById`): the same person, or someone
 * covering for the voter while they are away (ADR 0098). Each is unique per request, so one
 * person's decision never counts twice: not by voting themselves and through their delegate,
 * nor by a delegate voting for themselves and for someone they cover.
 */
export interface Ballot {
  voterId: string;
  castById: string;
  /** The voter's email, when cast for them. */
  forEmail?: string;
}

/** The refusal of a second vote, saying whose vote was already cast and by whom. */
export async function refuseSecondVote(db: DbClient, requestRowId: string, ballot: Ballot): Promise<never> {
  const votes = await listVotesOfEither({ db, requestRowId, ...ballot });
  const mine = votes.find((vote) => vote.castById === ballot.castById);
  if (mine) {
    if (mine.voterId === ballot.castById) throw new AppError("conflict:vote");
    throw new AppError("conflict:vote", {
      message: `You already voted on this request for ${mine.voterEmail}; each person's vote counts once.`,
    });
  }
  const theirs = votes.find((vote) => vote.voterId === ballot.voterId);
  if (!theirs) throw new AppError("conflict:vote");
  if (ballot.voterId === ballot.castById) {
    throw new AppError("conflict:vote_covered", {
      message: `${theirs.castByEmail} already voted for you on this request while you were away.`,
    });
  }
  throw new AppError("conflict:vote_covered", {
    message:
      theirs.castById === theirs.voterId
        ? `${theirs.voterEmail} already voted on this request.`
        : `${theirs.castByEmail} already voted on this request for ${theirs.voterEmail}.`,
  });
}
